// The agenda as a month grid: a table of weeks (Monday first) whose days hold their gigs, a few each with a
// "+ n more" to the list; on a phone a day shows how many gigs it has. Days after the last gig loaded so far
// (a busy month comes a page at a time) are marked as not yet loaded.

import { localDate } from "../../format.js";
import { html } from "../../lib.js";
import { recordPath } from "../../paths.js";
import { Badges, placeAndTime } from "./gig.js";
import { agendaUrl } from "./query.js";

const SHOWN_PER_DAY = 4;

function isoOf(year, month, day) {
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The month's weeks, Monday first: each a list of seven ISO dates or null (days of the months around it). */
export function weeksOf(month) {
  const [year, number] = month.split("-").map(Number);
  const length = new Date(year, number, 0).getDate();
  const lead = (new Date(year, number - 1, 1).getDay() + 6) % 7; // Monday 0 … Sunday 6
  const days = [...Array(lead).fill(null), ...Array.from({ length }, (_, i) => isoOf(year, number, i + 1))];
  while (days.length % 7) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, week) => days.slice(week * 7, week * 7 + 7));
}

function weekdayNames() {
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(2024, 0, 1 + i); // 1 January 2024 was a Monday
    return { short: day.toLocaleDateString(undefined, { weekday: "short" }), long: day.toLocaleDateString(undefined, { weekday: "long" }) };
  });
}

function GigInDay({ gig }) {
  const kind = gig.gig_status ? gig.gig_status.kind : "inquiry";
  const status = gig.gig_status ? gig.gig_status.name : "";
  return html`<li class=${`day-gig kind-${kind}`}>
    <a class="gig-title" href=${recordPath("gigs", gig.id)}
      ><bdi>${gig.title}</bdi><span class="visually-hidden">, ${status}, ${placeAndTime(gig)}</span></a
    >
    <${Badges} gig=${gig} />
  </li>`;
}

function Day({ iso, gigs, loaded, agenda, today }) {
  if (!iso) return html`<td class="outside"></td>`;
  const day = localDate(iso);
  const label = day.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
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

function todayIso() {
  const now = new Date();
  return isoOf(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/** `complete`: every gig of the month is loaded; otherwise days after the last one loaded are marked so. */
export function MonthGrid({ agenda, gigs, complete }) {
  const byDay = new Map();
  for (const gig of gigs) byDay.set(gig.gig_date, [...(byDay.get(gig.gig_date) || []), gig]);
  const lastLoaded = gigs.length ? gigs[gigs.length - 1].gig_date : "";
  const names = weekdayNames();
  const today = todayIso();
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
