// The musician's pages (SPEC §13) and their tab bar: at the foot of the screen on a phone, a row under the top bar
// on a wider one; the shell shows it on every page under /my. MY_TABS is the one list of those pages' tabs (their
// paths are fixed: links in mails and notifications lead to them); settings are reached from the top of the home. The Inbox tab carries the unread
// count, and the inbox's heading shows the same (useUnreadCount): one small GET /me/notifications when the tab bar
// is drawn and each time the inbox is opened (once when the page loads on the inbox), again when the app comes back
// to the front, and when a screen calls refreshUnreadCount() (after marking notifications read, or answering an
// invitation, which marks its notifications read).

import { api } from "./api.js";
import { html, useEffect, useRef, useState } from "./lib.js";

const svg = (body) => () => html`<svg class="tab-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${body()}</svg>`;

const ICONS = {
  gigs: svg(() => html`<path d="M9 18V5l12-2v13" /><circle cx="6" cy="18" r="3" /><circle cx="18" cy="16" r="3" />`),
  pay: svg(() => html`<rect x="2" y="6" width="20" height="12" rx="2" /><circle cx="12" cy="12" r="2.5" /><path d="M6 10v4M18 10v4" />`),
  away: svg(() => html`<rect x="3" y="5" width="18" height="16" rx="2" /><path d="M3 10h18M8 3v4M16 3v4M9.5 13.5l5 5M14.5 13.5l-5 5" />`),
  calendar: svg(() => html`<rect x="3" y="5" width="18" height="16" rx="2" /><path d="M3 10h18M8 3v4M16 3v4" /><circle cx="12" cy="15.5" r="1.5" />`),
  inbox: svg(() => html`<path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" /><path d="M13.7 21a2 2 0 0 1-3.4 0" />`),
};

export const MY_TABS = [
  { label: "Gigs", path: "/my", icon: ICONS.gigs, also: ["/my/gigs", "/my/invitations", "/my/settings"] },
  { label: "Pay", path: "/my/pay", icon: ICONS.pay },
  { label: "Away", path: "/my/blockouts", icon: ICONS.away },
  { label: "Calendar", path: "/my/calendar", icon: ICONS.calendar },
  { label: "Inbox", path: "/my/inbox", icon: ICONS.inbox, unread: true },
];

export const MY_HOME = "/my";

/** Whether `path` is one of the musician's pages (the tab bar is shown there). */
export function isMyPage(path) {
  return path === MY_HOME || path.startsWith(`${MY_HOME}/`);
}

function isCurrentTab(tab, path) {
  const under = (prefix) => path === prefix || path.startsWith(`${prefix}/`);
  if (tab.path === MY_HOME) return path === MY_HOME || (tab.also || []).some(under);
  return under(tab.path);
}

// --- the unread count -----------------------------------------------------------------------------------------

const REFRESH_AFTER_MS = 60 * 1000; // coming back to the front asks again only after this long
const INBOX = MY_TABS.find((tab) => tab.unread);
const countListeners = new Set();
let known = 0; // the last count answered, for a screen drawn after it came
let lastAsked = 0;
let latest = null; // the last request made: only its answer is shown

/** Ask the unread count again (a screen that marked notifications read, or answered an invitation). */
export async function refreshUnreadCount() {
  lastAsked = Date.now();
  const request = api.get("/me/notifications", { "filter[read]": "false", limit: 1, fields: "id" });
  latest = request;
  try {
    const answer = await request;
    if (request !== latest) return; // asked again meanwhile (after a write): that answer is the one to show
    known = answer.meta.total;
    countListeners.forEach((listener) => listener(known));
  } catch {
    // the count is a hint: a failure leaves the last one shown
  }
}

/** The unread count as last answered, followed: the tab bar shows it, and the inbox's heading. */
export function useUnreadCount() {
  const [count, setCount] = useState(known);
  useEffect(() => {
    countListeners.add(setCount);
    setCount(known); // an answer that came between the first draw and now
    return () => countListeners.delete(setCount);
  }, []);
  return count;
}

/** The tab bar asks the count: when drawn, each time the inbox is opened, when the app comes back to the front. */
function useCountAsked(path) {
  const inInbox = isCurrentTab(INBOX, path);
  const drawn = useRef(false);
  useEffect(() => {
    if (!drawn.current || inInbox) refreshUnreadCount();
    drawn.current = true;
  }, [inInbox]);
  useEffect(() => {
    const again = () => !document.hidden && Date.now() - lastAsked > REFRESH_AFTER_MS && refreshUnreadCount();
    document.addEventListener("visibilitychange", again);
    return () => document.removeEventListener("visibilitychange", again);
  }, []);
}

function tabName(tab, unread) {
  return tab.unread && unread ? `${tab.label}, ${unread} unread` : null;
}

/** The tab bar of the musician's pages, the current one marked. */
export function MyTabs({ path }) {
  useCountAsked(path);
  const unread = useUnreadCount();
  return html`<nav class="my-tabs" aria-label="My pages">
    <ul>
      ${MY_TABS.map(
        (tab) => html`<li key=${tab.path}>
          <a href=${tab.path} aria-current=${isCurrentTab(tab, path) ? "page" : null} aria-label=${tabName(tab, unread)}>
            ${tab.icon()}<span class="tab-label">${tab.label}${tab.unread && unread
              ? html`<span class="tab-count" aria-hidden="true">${unread > 99 ? "99+" : unread}</span>`
              : null}</span>
          </a>
        </li>`,
      )}
    </ul>
  </nav>`;
}
