// A pay sheet's period in the screen's query string (?from=&to=, both dates, inclusive; last month when either is
// missing or not a date), and the form that chooses it: last month, this month, or the dates typed. The office's
// Pay screen and a musician's own pay (/my/pay) both read and choose their period here.

import { date, monthBounds, shiftMonth, thisMonth } from "../format.js";
import { html, useState } from "../lib.js";
import { navigate } from "../router.js";
import { withQuery } from "./paging.js";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** [from, to] of the browser's month moved `by` months ("this month" is 0). */
export function monthPeriod(by) {
  return monthBounds(shiftMonth(thisMonth(), by));
}

/** [from, to] the query names, else last month. */
export function periodOf(query) {
  if (DATE_RE.test(query.from || "") && DATE_RE.test(query.to || "")) return [query.from, query.to];
  return monthPeriod(-1);
}

/** Last month and this month as links (the one shown marked current), then From and To with Show: each goes to
 * `path` with the period in its query string (paging and the rest left behind). */
export function PeriodForm({ path, from, to }) {
  const [dates, setDates] = useState({ from, to });
  const monthLink = (label, by) => {
    const [first, last] = monthPeriod(by);
    const shown = first === from && last === to;
    return html`<a class="period-month" href=${withQuery(path, {}, { from: first, to: last })}
      aria-current=${shown ? "true" : null}>${label}</a>`;
  };
  function submit(event) {
    event.preventDefault();
    navigate(withQuery(path, {}, dates));
  }
  return html`<form class="period no-print" onSubmit=${submit} aria-label="Period">
    ${monthLink("Last month", -1)}
    ${monthLink("This month", 0)}
    <label>From <input type="date" required value=${dates.from} onInput=${(e) => setDates({ ...dates, from: e.target.value })} /></label>
    <label>To <input type="date" required value=${dates.to} onInput=${(e) => setDates({ ...dates, to: e.target.value })} /></label>
    <button type="submit">Show</button>
  </form>`;
}

/** A pay screen's head: its title, the period in words, and the form that chooses another. */
export function PeriodHeader({ title, path, from, to }) {
  return html`<header class="screen-header">
      <h1>${title}</h1>
      <p class="period-said">${date(from)} – ${date(to)}</p>
    </header>
    <${PeriodForm} key=${`${from}/${to}`} path=${path} from=${from} to=${to} />`;
}
