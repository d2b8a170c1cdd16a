// The first day's checklist on the agenda (SPEC §12.1): five steps from a new office to its first gig, each
// ticked from GET /office's first_day and each a guided form; shown while a step is open, until it is hidden.
// Asked once when the agenda opens (not again as its months change), and only while the office the console
// started with had a step open.

import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";

const HIDDEN = "band-office.first-day-hidden";

export const STEPS = [
  { id: "office", title: "Your office", what: "its name, time zone and currency", path: "/first-day/office", action: "Set up", may: "admin.edit" },
  { id: "product", title: "What you sell", what: "a first product with its price", path: "/first-day/product", action: "Add", may: "catalog.edit" },
  { id: "ensemble", title: "Who plays it", what: "an ensemble, the roles it needs and what each is paid", path: "/first-day/ensemble", action: "Set up", may: "catalog.edit" },
  { id: "musicians", title: "Your musicians", what: "name, e-mail and what they play; “can sign in” mails them a link", path: "/people/musicians/new", action: "Add", may: "people.edit" },
  { id: "gig", title: "Your first gig", what: "the date, the client, what they booked; then invite your musicians", path: "/gigs/new", action: "New gig", may: "gigs.edit" },
];

const anyOpen = (firstDay) => Boolean(firstDay) && STEPS.some((step) => !firstDay[step.id]);

/** The office (GET /office, with its first_day ticks) while a step is open (null when none is, or the list is
 * hidden). */
export function useFirstDay() {
  const { api, office } = useConsole();
  const [hidden, setHidden] = useState(() => localStorage.getItem(HIDDEN) === "yes");
  const asking = !hidden && anyOpen(office.first_day);
  const found = useLoad(({ signal }) => (asking ? api.get("/office", {}, { signal }) : Promise.resolve(null)), []);
  const now = found.answer && found.answer.data;
  const hide = () => {
    localStorage.setItem(HIDDEN, "yes");
    setHidden(true);
  };
  return { office: !hidden && now && anyOpen(now.first_day) ? now : null, hide };
}

/** What a step is for, or for the office once it is set up, how it is. */
function words(step, office) {
  if (step.id === "office" && office.first_day.office) return [office.name, office.time_zone, office.currency].join(" · ");
  return step.what;
}

function Step({ step, ticked, office }) {
  const { me } = useConsole();
  return html`<li class=${ticked ? "step done" : "step"}>
    <span class="tick" aria-hidden="true">${ticked ? "✓" : "○"}</span>
    <span class="step-words"><span class="step-title">${step.title}</span>
      <span class="visually-hidden">${ticked ? " (done)" : " (to do)"}</span>
      <span class="muted">${words(step, office)}</span></span>
    ${!ticked && can(me, step.may) ? html`<a class="button" href=${step.path} aria-label=${`${step.action}: ${step.title}`}>${step.action}</a>` : null}
  </li>`;
}

export function Checklist({ office, hide }) {
  const firstDay = office.first_day;
  const count = STEPS.filter((step) => firstDay[step.id]).length;
  return html`<section class="first-day" aria-labelledby="first-day-heading">
    <header>
      <h2 id="first-day-heading">Welcome to Band Office: five steps to your first gig</h2>
      <p class="muted">${count} of ${STEPS.length} done</p>
    </header>
    <ol class="first-day-steps">${STEPS.map((step) => html`<${Step} key=${step.id} step=${step} ticked=${firstDay[step.id]} office=${office} />`)}</ol>
    <button type="button" class="quiet" onClick=${hide}>Hide these steps</button>
  </section>`;
}
