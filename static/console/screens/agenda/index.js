// Agenda (SPEC §12, screen 1; the office's home): the gigs of a month as a list or a month grid, or of the next
// days; filtered by status kind, gig type, a search and open roles. Its state is the URL (agenda/query.js).
// One GET /gigs a page (each gig with its status, venue and counts); the filter's gig types once a session; while
// the office's first steps are open, their checklist (first_day/checklist.js) on an empty agenda.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { monthName, pageTitle, shiftMonth } from "../../format.js";
import { Happened, useTold } from "../../happened.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { Checklist, useFirstDay } from "../first_day/checklist.js";
import { Filters } from "./filters.js";
import { GigList, MonthGrid } from "./gigs.js";
import { agendaOf, agendaUrl, gigsQuery } from "./query.js";

const UPCOMING_DAYS = 30;

function monthLabel(month) {
  const [year, number] = month.split("-").map(Number);
  return monthName(year, number);
}

function titleOf(agenda) {
  if (!agenda.days) return monthLabel(agenda.month);
  return `Next ${agenda.days} days${agenda.open ? " with open roles" : ""}`;
}

/** The gigs of `agenda` a page at a time: {gigs, total, error, loading, more()}, each page added to those shown.
 * Drawn under a key of the agenda's question: another question starts afresh (a request under way is aborted). */
function useGigs(agenda) {
  const { api, me } = useConsole();
  const [offset, setOffset] = useState(0);
  const found = useLoad(
    async ({ signal, answer }) => {
      const page = await api.get("/gigs", gigsQuery(agenda, offset, can(me, "sales.view")), { signal });
      return offset === 0 || !answer ? page : { ...page, data: [...answer.data, ...page.data] };
    },
    [offset],
  );
  const gigs = found.answer && !found.error ? found.answer.data : null;
  const total = gigs ? found.answer.meta.total : 0;
  return { gigs, total, error: found.error, loading: found.loading, more: () => setOffset(gigs.length) };
}

function MonthNavigation({ agenda }) {
  const before = shiftMonth(agenda.month, -1);
  const after = shiftMonth(agenda.month, 1);
  const today = agendaOf({});
  return html`<nav class="month-navigation" aria-label="Months">
    <a href=${agendaUrl(agenda, { month: before, days: null })} aria-label=${`Previous month, ${monthLabel(before)}`}>◂</a>
    <a href=${agendaUrl(agenda, { month: today.month, days: null })}>Today</a>
    <a href=${agendaUrl(agenda, { month: after, days: null })} aria-label=${`Next month, ${monthLabel(after)}`}>▸</a>
  </nav>`;
}

function ViewToggle({ agenda }) {
  const views = [
    ["list", "List"],
    ["grid", "Month"],
  ];
  return html`<nav class="view-toggle" aria-label="View">
    ${views.map(
      ([view, label]) => html`<a key=${view} href=${agendaUrl(agenda, { view, days: null })}
        aria-current=${agenda.view === view && !agenda.days ? "page" : null}>${label}</a>`,
    )}
  </nav>`;
}

function UpcomingLink({ agenda }) {
  const shown = agenda.days === UPCOMING_DAYS && agenda.open;
  return html`<a class="upcoming" href=${agendaUrl({ ...agendaOf({}), days: UPCOMING_DAYS, open: true })}
    aria-current=${shown ? "page" : null}>Next ${UPCOMING_DAYS} days with open roles</a>`;
}

function Summary({ gigs, total, loading, more }) {
  if (gigs.length >= total) return null;
  return html`<p class="more">
    ${gigs.length} of ${total} gigs shown.
    <button type="button" class="quiet" onClick=${more} disabled=${loading}>${loading ? "Loading…" : "Show more"}</button>
  </p>`;
}

/** The agenda's gigs; `steps` (the first day's checklist, while a step is open) where there are none. */
function Gigs({ agenda, steps }) {
  const { gigs, total, error, loading, more } = useGigs(agenda);
  if (gigs === null) return error ? html`<${ErrorMessage} error=${error} />` : html`<${Loading} />`;
  if (gigs.length === 0) return html`<p class="empty">${emptyWords(agenda)}</p>${steps}`;
  return html`
    <p class="visually-hidden" role="status">${total} ${total === 1 ? "gig" : "gigs"}</p>
    ${agenda.view === "grid"
      ? html`<${MonthGrid} agenda=${agenda} gigs=${gigs} complete=${gigs.length >= total} />`
      : html`<${GigList} gigs=${gigs} />`}
    <${Summary} gigs=${gigs} total=${total} loading=${loading} more=${more} />
  `;
}

function filtered(agenda) {
  return Boolean(agenda.kind || agenda.type || agenda.q || agenda.open);
}

/** What is true of an empty agenda: "No gigs in December 2026.", "No gig in the next 30 days has an open role." */
function emptyWords(agenda) {
  const when = agenda.days ? `in the next ${agenda.days} days` : `in ${monthLabel(agenda.month)}`;
  if (agenda.open && !agenda.kind && !agenda.type && !agenda.q) return `No gig ${when} has an open role.`;
  return `No gigs ${when}${filtered(agenda) ? " match the filters" : ""}.`;
}

export default function Agenda({ query }) {
  const { me } = useConsole();
  const told = useTold();
  const firstDay = useFirstDay();
  const agenda = agendaOf(query);
  const title = titleOf(agenda);
  useEffect(() => void (document.title = pageTitle(title)), [title]);
  return html`<section class=${`screen agenda view-${agenda.view}`}>
    <header class="screen-header">
      <h1>${title}</h1>
      <${MonthNavigation} agenda=${agenda} />
      <${ViewToggle} agenda=${agenda} />
      <${UpcomingLink} agenda=${agenda} />
      ${can(me, "gigs.edit") ? html`<a class="button new-gig-link" href="/gigs/new">New gig</a>` : null}
    </header>
    ${told ? html`<${Happened} words=${told} />` : null}
    <${Filters} agenda=${agenda} />
    <${Gigs} key=${JSON.stringify(gigsQuery(agenda))} agenda=${agenda}
      steps=${firstDay.office ? html`<${Checklist} office=${firstDay.office} hide=${firstDay.hide} />` : null} />
  </section>`;
}
