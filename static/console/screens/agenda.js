// Agenda (SPEC §12, screen 1): the gigs of a month (?month=2026-11, this month by default) as a list: date,
// title, times, venue, status by kind, open roles and pending invitations.

import { ErrorMessage, Loading, StatusBadge } from "../components.js";
import { date, monthBounds, monthName, shiftMonth, thisMonth, timeRange } from "../format.js";
import { html, useEffect, useState } from "../lib.js";
import { can } from "../me.js";
import { recordPath } from "../paths.js";

const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
const FIELDS = "id,gig_date,title,start_time,end_time,gig_status,venue,open_role_count,pending_invitation_count";

function monthOf(query) {
  return MONTH_RE.test(query.month || "") ? query.month : thisMonth();
}

function gigsOfMonth(api, month) {
  const [first, last] = monthBounds(month);
  return api.get("/gigs", {
    "filter[gig_date][gte]": first,
    "filter[gig_date][lte]": last,
    sort: "gig_date,start_time",
    expand: "gig_status,venue",
    fields: FIELDS,
    limit: 200,
  });
}

function Badges({ gig }) {
  const open = gig.open_role_count;
  const pending = gig.pending_invitation_count;
  return html`<span class="badges">
    ${open > 0 ? html`<span class="badge open-roles">${open} open</span>` : null}
    ${pending > 0 ? html`<span class="badge pending">${pending} pending</span>` : null}
  </span>`;
}

function GigRow({ gig }) {
  return html`<li class="gig-row">
    <span class="gig-date">${date(gig.gig_date, { weekday: "short", day: "numeric" })}</span>
    <a class="gig-title" href=${recordPath("gigs", gig.id)}>${gig.title}</a>
    <span class="gig-place">${[gig.venue && gig.venue.name, timeRange(gig.start_time, gig.end_time)].filter(Boolean).join(" · ")}</span>
    <${StatusBadge} status=${gig.gig_status} />
    <${Badges} gig=${gig} />
  </li>`;
}

function monthLabel(month) {
  const [year, number] = month.split("-").map(Number);
  return monthName(year, number);
}

function MonthNavigation({ month }) {
  const before = shiftMonth(month, -1);
  const after = shiftMonth(month, 1);
  return html`<nav class="month-navigation" aria-label="Months">
    <a href=${`/agenda?month=${before}`} aria-label=${`Previous month, ${monthLabel(before)}`}>◂</a>
    <a href="/agenda">Today</a>
    <a href=${`/agenda?month=${after}`} aria-label=${`Next month, ${monthLabel(after)}`}>▸</a>
  </nav>`;
}

export default function Agenda({ query, me, api }) {
  const month = monthOf(query);
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    gigsOfMonth(api, month).then(setAnswer, setError);
  }, [month]);
  return html`<section class="screen agenda">
    <header class="screen-header">
      <h1>${monthLabel(month)}</h1>
      <${MonthNavigation} month=${month} />
      ${can(me, "gigs.edit") ? html`<a class="button new-gig-link" href="/gigs/new">New gig</a>` : null}
    </header>
    <${ErrorMessage} error=${error} />
    ${!answer && !error ? html`<${Loading} />` : null}
    ${answer && answer.data.length === 0 ? html`<p>No gigs this month.</p>` : null}
    ${answer && answer.data.length > 0
      ? html`<ul class="gig-list" aria-label="Gigs">${answer.data.map((gig) => html`<${GigRow} key=${gig.id} gig=${gig} />`)}</ul>`
      : null}
    ${answer && answer.meta.total > answer.data.length
      ? html`<p class="more">${answer.data.length} of ${answer.meta.total} gigs shown.</p>`
      : null}
  </section>`;
}
