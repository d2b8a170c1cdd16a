// What every first-day step's screen shares (SPEC §12.1): its frame (the step's heading, a line on what it is for,
// the way back to the checklist on the agenda), and how it ends: the write's words told to the agenda, which
// ticks the step.

import { ErrorMessage } from "../../components/index.js";
import { tell } from "../../happened.js";
import { html } from "../../lib.js";
import { navigate } from "../../router.js";

export const CHECKLIST_PATH = "/agenda";

/** Back to the checklist, saying what was done. */
export function done(words) {
  tell(words);
  navigate(CHECKLIST_PATH);
}

export function StepScreen({ title, intro, className, children }) {
  return html`<section class=${`screen first-day-step ${className || ""}`}>
    <header class="screen-header"><h1>${title}</h1><a href=${CHECKLIST_PATH}>Back to the first steps</a></header>
    <p class="intro">${intro}</p>
    ${children}
  </section>`;
}

/** The foot of a step's form: what a refusal said that no field shows, and the button. */
export function StepActions({ error, busy, label }) {
  return html`${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
    ${error && error.status === 422 ? html`<p class="error" role="alert">Not saved yet: see the fields marked above.</p>` : null}
    <div class="actions"><button type="submit" disabled=${busy}>${label}</button></div>`;
}
