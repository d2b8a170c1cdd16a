// The agenda's gigs, as a list (a row per gig, its day written once per day) or as a month grid (a table of weeks,
// Monday first, whose days hold a few gigs each and a "+ n more"; on a phone how many gigs a day has). Both show a
// gig's staffing badges (open roles and pending invitations, SPEC §11's counts), each a link to its staffing, and with
// sales.view its sales badges (quote sent, contract unsigned, deposit overdue: §15's counts), each to its Sales tab. Days
// after the last gig loaded so far (a busy month comes a page at a time) are marked as not yet loaded.

import { StatusBadge } from "../../components/index.js";
import { dateFormat, isoDay, localDate, timeRange } from "../../format.js";
import { html, useEffect, useState } from "../../lib.js";
import { gigPath, recordPath, staffingPath } from "../../paths.js";
import { agendaUrl } from "./query.js";

const SHOWN_PER_DAY = 4;
const FIRST_ROWS = 40;
const ROW_DAY = dateFormat({ weekday: "short", day: "numeric", month: "short" });
const LONG_DAY = dateFormat({ weekday: "long", day: "numeric", month: "long" });

// --- what both show ---

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

// Plain functions rather than components: a month may have 200 rows, and each component costs its drawing.

/** "2 open" and "1 pending", each a link to the gig's staffing; "all filled" when every role is. */
function badges(gig) {
  const open = gig.open_role_count || 0;
  const pending = gig.pending_invitation_count || 0;
  const staffing = staffingPath(gig.id);
  const cancelled = gig.gig_status && gig.gig_status.kind === "cancelled";
  return html`<span class="badges">
    ${open > 0
      ? html`<a class="badge open-roles" href=${staffing} data-count=${open}
          ><span aria-hidden="true">${open} open</span><span class="visually-hidden">${plural(open, "open role", "open roles")}</span></a
        >`
      : null}
    ${pending > 0
      ? html`<a class="badge pending" href=${staffing} data-count=${pending}
          ><span aria-hidden="true">${pending} pending</span
          ><span class="visually-hidden">${plural(pending, "pending invitation", "pending invitations")}</span></a
        >`
      : null}
    ${open === 0 && pending === 0 && gig.role_count > 0 && !cancelled
      ? html`<span class="badge filled">all filled</span>`
      : null}
    ${salesBadges(gig)}
  </span>`;
}

/** "Schloss Hof · 14:00–01:00" (the times as the API gives them: the venue's). */
function placeAndTime(gig) {
  return [gig.venue && gig.venue.name, timeRange(gig.start_time, gig.end_time)].filter(Boolean).join(" · ");
}

/** The same, the venue isolated from the text around it and the times kept on one line. */
function placeAndTimeShown(gig) {
  const times = timeRange(gig.start_time, gig.end_time);
  return html`<span class="gig-place"
    >${gig.venue ? html`<bdi>${gig.venue.name}</bdi>` : null}${gig.venue && times ? " · " : null}${times
      ? html`<span class="gig-time">${times}</span>`
      : null}</span
  >`;
}

// SPEC §15's badges (the gig's sales counts, read with sales.view only), each a link to the gig's Sales tab
function salesBadges(gig) {
  const words = [
    gig.quote_status === "sent" ? ["quote-sent", "quote sent"] : null,
    gig.contract_status === "draft" || gig.contract_status === "sent" ? ["contract-unsigned", "contract unsigned"] : null,
    gig.deposit_overdue ? ["deposit-overdue", "deposit overdue"] : null,
  ].filter(Boolean);
  return words.map(([kind, said]) => html`<a class=${`badge sales ${kind}`} href=${gigPath(gig.id, "sales")}>${said}</a>`);
}

// --- the list ---

function GigRow({ gig, firstOfDay }) {
  const day = ROW_DAY.format(localDate(gig.gig_date));
  return html`<li class=${firstOfDay ? "gig-row first-of-day" : "gig-row"}>
    <span class="gig-date"><span class=${firstOfDay ? null : "visually-hidden"}>${day}</span></span>
    <a class="gig-title" href=${recordPath("gigs", gig.id)}><bdi>${gig.title}</bdi></a>
    ${placeAndTimeShown(gig)} ${StatusBadge({ status: gig.gig_status })} ${badges(gig)}
  </li>`;
}

/** The rows: the first FIRST_ROWS at once, the rest once those are on the screen (a month of a busy office is
 * 200 rows a page, and the top of the month should not wait for the bottom of it). */
export function GigList({ gigs }) {
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => {
    if (shown < gigs.length) setShown(gigs.length);
  }, [gigs, shown]);
  const rows = gigs.slice(0, Math.max(shown, FIRST_ROWS));
  return html`<ul class="gig-list" aria-label="Gigs">
    ${rows.map(
      (gig, i) => html`<${GigRow} key=${gig.id} gig=${gig} firstOfDay=${i === 0 || gigs[i - 1].gig_date !== gig.gig_date} />`,
    )}
  </ul>`;
}

// --- the month grid ---


/** The month's weeks, Monday first: each a list of seven ISO dates or null (days of the months around it). */
function weeksOf(month) {
  const [year, number] = month.split("-").map(Number);
  const length = new Date(year, number, 0).getDate();
  const lead = (new Date(year, number - 1, 1).getDay() + 6) % 7; // Monday 0 … Sunday 6
  const days = [...Array(lead).fill(null), ...Array.from({ length }, (_, i) => isoDay(new Date(year, number - 1, i + 1)))];
  while (days.length % 7) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, week) => days.slice(week * 7, week * 7 + 7));
}

function weekdayNames() {
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(2024, 0, 1 + i); // 1 January 2024 was a Monday
    return { short: dateFormat({ weekday: "short" }).format(day), long: dateFormat({ weekday: "long" }).format(day) };
  });
}

function GigInDay({ gig }) {
  const kind = gig.gig_status ? gig.gig_status.kind : "inquiry";
  const status = gig.gig_status ? gig.gig_status.name : "";
  return html`<li class=${`day-gig kind-${kind}`}>
    <a class="gig-title" href=${recordPath("gigs", gig.id)}
      ><bdi>${gig.title}</bdi><span class="visually-hidden">, ${status}, ${placeAndTime(gig)}</span></a
    >
    ${badges(gig)}
  </li>`;
}

function Day({ iso, gigs, loaded, agenda, today }) {
  if (!iso) return html`<td class="outside"></td>`;
  const day = localDate(iso);
  const label = LONG_DAY.format(day);
  const more = gigs.length - SHOWN_PER_DAY;
  const classes = ["day", iso === today ? "today" : "", loaded ? "" : "not-loaded"].filter(Boolean).join(" ");
  return html`<td class=${classes} aria-current=${iso === today ? "date" : null}>
    <div class="day-head">
      <span class="day-number" aria-hidden="true">${day.getDate()}</span>
      <span class="visually-hidden">${label}</span>
      ${gigs.length > 0
        ? html`<a class="day-count" href=${agendaUrl(agenda, { view: "list" })}
            >${gigs.length}<span class="visually-hidden"> ${gigs.length === 1 ? "gig" : "gigs"}</span></a
          >`
        : null}
    </div>
    ${gigs.length > 0
      ? html`<ul class="day-gigs">${gigs.slice(0, SHOWN_PER_DAY).map((gig) => html`<${GigInDay} key=${gig.id} gig=${gig} />`)}</ul>`
      : null}
    ${more > 0 ? html`<a class="day-more" href=${agendaUrl(agenda, { view: "list" })}>+ ${more} more</a>` : null}
  </td>`;
}


/** `complete`: every gig of the month is loaded; otherwise days after the last one loaded are marked so. */
export function MonthGrid({ agenda, gigs, complete }) {
  const byDay = new Map();
  for (const gig of gigs) byDay.set(gig.gig_date, [...(byDay.get(gig.gig_date) || []), gig]);
  const lastLoaded = gigs.length ? gigs[gigs.length - 1].gig_date : "";
  const names = weekdayNames();
  const today = isoDay();
  return html`<table class="month-grid">
    <thead>
      <tr>
        ${names.map((name) => html`<th key=${name.long} scope="col"><abbr title=${name.long}>${name.short}</abbr></th>`)}
      </tr>
    </thead>
    <tbody>
      ${weeksOf(agenda.month).map(
        (week) => html`<tr key=${week.find(Boolean)}>
          ${week.map(
            (iso, i) => html`<${Day} key=${iso || `empty-${i}`} iso=${iso} gigs=${(iso && byDay.get(iso)) || []}
              loaded=${complete || (iso && iso <= lastLoaded)} agenda=${agenda} today=${today} />`,
          )}
        </tr>`,
      )}
    </tbody>
  </table>`;
}
