// Agenda (SPEC §12, screen 1; the office's home): the gigs of a month as a list or a month grid, or of the next
// days; filtered by status kind, gig type, a search and open roles. Its state is the URL (agenda/query.js).
// One GET /gigs a page (each gig with its status, venue and counts); the filter's gig types once a session.

import { ErrorMessage, Loading } from "../components.js";
import { monthName, shiftMonth } from "../format.js";
import { html, useEffect, useMemo, useState } from "../lib.js";
import { can } from "../me.js";
import { Filters } from "./agenda/filters.js";
import { GigList, MonthGrid } from "./agenda/gigs.js";
import { PAGE_SIZE, agendaOf, agendaUrl, gigsQuery } from "./agenda/query.js";

const UPCOMING_DAYS = 30;

function monthLabel(month) {
  const [year, number] = month.split("-").map(Number);
  return monthName(year, number);
}

function titleOf(agenda) {
  if (!agenda.days) return monthLabel(agenda.month);
  return `Next ${agenda.days} days${agenda.open ? " with open roles" : ""}`;
}

/** The gigs of `agenda` a page at a time: {gigs, total, error, loading, more()}. A change of the agenda drops
 * what was loaded and aborts a request still under way. The request starts while the screen is first drawn, not
 * in an effect: Preact runs effects after the next paint, and a busy machine paints late. */
function useGigs(api, agenda) {
  const keyText = JSON.stringify(gigsQuery(agenda));
  const [state, setState] = useState({ key: keyText, gigs: null, total: 0, error: null });
  const [offset, setOffset] = useState(0);
  const shownOffset = state.key === keyText ? offset : 0;
  const request = useMemo(() => {
    const control = new AbortController();
    return { control, answer: api.get("/gigs", gigsQuery(agenda, shownOffset), { signal: control.signal }) };
  }, [keyText, shownOffset]);
  useEffect(() => {
    request.answer.then(
      (answer) =>
        setState((before) => ({
          key: keyText,
          gigs: shownOffset === 0 || before.key !== keyText ? answer.data : [...(before.gigs || []), ...answer.data],
          total: answer.meta.total,
          error: null,
        })),
      (error) => error.name !== "AbortError" && setState({ key: keyText, gigs: null, total: 0, error }),
    );
    return () => request.control.abort();
  }, [request]);
  if (state.key !== keyText) {
    if (offset !== 0) setOffset(0);
    return { gigs: null, total: 0, error: null, loading: true, more: () => {} };
  }
  const loading = !state.error && (state.gigs === null || state.gigs.length < Math.min(state.total, offset + PAGE_SIZE));
  return { ...state, loading, more: () => setOffset((state.gigs || []).length) };
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

function Gigs({ agenda, found }) {
  const { gigs, total, error, loading, more } = found;
  if (gigs === null) return error ? null : html`<${Loading} />`;
  if (gigs.length === 0) return html`<p class="empty">No gigs ${agenda.days ? "in these days" : "this month"}${filtered(agenda) ? " match the filters" : ""}.</p>`;
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

export default function Agenda({ query, api, me }) {
  const agenda = agendaOf(query);
  const found = useGigs(api, agenda);
  const title = titleOf(agenda);
  useEffect(() => void (document.title = `${title} · Band Office`), [title]);
  return html`<section class=${`screen agenda view-${agenda.view}`}>
    <header class="screen-header">
      <h1>${title}</h1>
      <${MonthNavigation} agenda=${agenda} />
      <${ViewToggle} agenda=${agenda} />
      <${UpcomingLink} agenda=${agenda} />
      ${can(me, "gigs.edit") ? html`<a class="button new-gig-link" href="/gigs/new">New gig</a>` : null}
    </header>
    <${Filters} agenda=${agenda} api=${api} me=${me} />
    <${ErrorMessage} error=${found.error} />
    <${Gigs} agenda=${agenda} found=${found} />
  </section>`;
}
