// /my/inbox (SPEC §13, §9): the musician's notifications, newest first, 20 at a time (PAGE) with "Show more"; the
// unread ones marked in words, and their count in the heading (the tab bar's count, my_tabs.js useUnreadCount).
// Tapping one marks it read (POST /me/notifications/{id}/read) and opens the invitation or the gig its data names;
// "Mark all read" (POST /me/notifications/read-all). While offline (useOffline) nothing writes: the app is read only.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { moment } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { refreshUnreadCount, useUnreadCount } from "../../my_tabs.js";
import { useOffline } from "../../offline.js";
import { myGigPath, myInvitationPath } from "../../paths.js";
import { navigate } from "../../router.js";

const PAGE = 20;

/** Where a notification leads: the invitation it is about, else its gig, else nowhere. */
function targetOf(notification) {
  const data = notification.data || {};
  if (data.invitation_id) return myInvitationPath(data.invitation_id);
  if (data.gig_id) return myGigPath(data.gig_id);
  return null;
}

/** The inbox's state: the notifications shown (the first page, then older ones appended by more()), the unread
 * count (the tab bar's, my_tabs.js), and what changes them. */
function useInbox() {
  const { api } = useConsole();
  const first = useLoad(() => api.get("/me/notifications", { limit: PAGE }), []);
  const unread = useUnreadCount();
  const writing = useWrite(); // a write, or "Show more"
  const shown = first.answer && { items: first.answer.data, total: first.answer.meta.total };
  const more = () =>
    writing.run(async () => {
      const page = await api.get("/me/notifications", { limit: PAGE, offset: shown.items.length });
      first.update(({ data }) => {
        const known = new Set(data.map((item) => item.id)); // one that came meanwhile moved the pages on
        return { data: [...data, ...page.data.filter((item) => !known.has(item.id))], meta: page.meta };
      });
    });
  async function markRead(notification) {
    const marked = (await api.post(`/me/notifications/${encodeURIComponent(notification.id)}/read`)).data;
    first.update((answer) => ({ ...answer, data: answer.data.map((item) => (item.id === marked.id ? marked : item)) }));
    refreshUnreadCount();
  }
  const markOnly = (notification) => writing.run(() => markRead(notification));
  const markAllRead = () =>
    writing.run(async () => {
      await api.post("/me/notifications/read-all");
      first.reload();
      refreshUnreadCount();
    });
  return { shown, unread, error: writing.error || first.error, more, markRead, markOnly, markAllRead };
}

function Notice({ notification, offline, inbox }) {
  const unread = !notification.read_at;
  const target = targetOf(notification);
  async function open(event) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // Marked before the inbox is left; the invitation or gig opens even if the mark could not be saved (it stays
    // unread, to be marked on the next tap): what it leads to matters more than the mark.
    if (unread && !offline) await inbox.markRead(notification).catch(() => {});
    navigate(target);
  }
  const content = html`
    <span class="notice-line">
      ${unread ? html`<span class="notice-new">New</span>` : null}
      <strong class="notice-title">${notification.title}</strong>
    </span>
    <span class=${target ? "notice-body clamped" : "notice-body"}>${notification.body}</span>
    <time class="notice-when" datetime=${notification.created_at}>${moment(notification.created_at)}</time>`;
  return html`<li class=${unread ? "notice unread" : "notice"}>
    ${target ? html`<a class="notice-open" href=${target} onClick=${open}>${content}</a>` : html`<div class="notice-open">${content}</div>`}
    ${!target && unread && !offline ? html`<button type="button" class="quiet" onClick=${() => inbox.markOnly(notification)}>Mark read</button>` : null}
  </li>`;
}

export default function MyInbox() {
  const { offline } = useOffline();
  const inbox = useInbox();
  const { shown, unread, error } = inbox;
  return html`<section class="screen my-inbox">
    <header class="screen-header">
      <h1>Inbox${unread ? html` <span class="unread-count">${unread} unread</span>` : null}</h1>
      ${unread && !offline ? html`<button type="button" class="quiet big" onClick=${inbox.markAllRead}>Mark all read</button>` : null}
    </header>
    <${ErrorMessage} error=${error} />
    ${!shown && !error ? html`<${Loading} />` : null}
    ${shown && shown.items.length === 0 ? html`<p>Nothing yet: invitations and news about your gigs come here.</p>` : null}
    ${shown && shown.items.length > 0
      ? html`<ul class="notices" aria-label="Notifications, newest first">
          ${shown.items.map((item) => html`<${Notice} key=${item.id} notification=${item} offline=${offline} inbox=${inbox} />`)}
        </ul>`
      : null}
    ${shown && shown.items.length < shown.total
      ? html`<p><button type="button" class="quiet big" onClick=${inbox.more}>Show more (${shown.total - shown.items.length} older)</button></p>`
      : null}
  </section>`;
}
