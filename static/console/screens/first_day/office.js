// The first day's first step (SPEC §12.1): the office's name, time zone (this computer's offered), currency,
// language, date style and clock, saved with PATCH /office; the agenda's checklist ticks it.

import { ErrorMessage, Loading } from "../../components/index.js";
import { Field, TextInput, describedBy } from "../../components/guided_field.js";
import { useConsole } from "../../context.js";
import { followOffice } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { StepActions, StepScreen, done } from "./step_form.js";

const guessedZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const LANGUAGES = [["en", "English"], ["de", "Deutsch (German)"]];
const DATE_STYLES = ["dd.mm.yyyy", "dd/mm/yyyy", "mm/dd/yyyy", "yyyy-mm-dd"];
const CLOCKS = [["24h", "24-hour (18:30)"], ["12h", "12-hour (6:30 PM)"]];
const EXAMPLE = { "dd.mm.yyyy": "28.11.2026", "dd/mm/yyyy": "28/11/2026", "mm/dd/yyyy": "11/28/2026", "yyyy-mm-dd": "2026-11-28" };

/** Every zone the browser knows, with the office's and this computer's among them. */
function zones(...ours) {
  const all = Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([...ours.filter(Boolean), ...all])].sort();
}

function currencies() {
  const names = new Intl.DisplayNames(["en"], { type: "currency" });
  const codes = Intl.supportedValuesOf ? Intl.supportedValuesOf("currency") : ["EUR", "CHF", "GBP", "USD"];
  return codes.map((code) => [code, `${names.of(code)} (${code})`]);
}

function Choice({ id, name, values, setValues, error, options }) {
  return html`<select id=${id} value=${values[name]} aria-describedby=${describedBy(id, error, name)}
    onChange=${(event) => setValues({ ...values, [name]: event.target.value })}>
    ${options.map(([value, words]) => html`<option value=${value}>${words}</option>`)}
  </select>`;
}

function OfficeForm({ office }) {
  const { api } = useConsole();
  const guess = guessedZone();
  // until the office is set up once, its zone is a default nobody chose: this computer's is offered instead
  const zone = office.first_day.office ? office.time_zone : guess;
  const [values, setValues] = useState({ ...office, time_zone: zone });
  const { error, busy, run } = useWrite();
  const shared = { values, setValues, error };
  const submit = (event) => {
    event.preventDefault();
    const { name, time_zone, currency, language, date_style, clock } = values;
    run(async () => {
      const saved = (await api.patch("/office", { name, time_zone, currency, language, date_style, clock })).data;
      followOffice(saved);
      done(`Saved: ${saved.name}`);
    });
  };
  const zoneOptions = zones(office.time_zone, guess).map((zone) => [zone, zone === guess ? `${zone} (this computer's)` : zone]);
  return html`<form class="guided-form" onSubmit=${submit} novalidate>
    <${Field} id="office-name" label="The band's name" help="Shown on mails to musicians and clients." error=${error} field="name">
      <${TextInput} id="office-name" name="name" required maxLength="200" ...${shared} /><//>
    <${Field} id="office-zone" label="Time zone" help="Deadlines in mails and on pages, and venues without a zone of their own, are in it." error=${error} field="time_zone">
      <${Choice} id="office-zone" name="time_zone" options=${zoneOptions} ...${shared} /><//>
    <${Field} id="office-currency" label="Currency" help="Prices, pay and rates are in it." error=${error} field="currency">
      <${Choice} id="office-currency" name="currency" options=${currencies()} ...${shared} /><//>
    <${Field} id="office-language" label="Language" help="Of dates and amounts, and of mails to clients." error=${error} field="language">
      <${Choice} id="office-language" name="language" options=${LANGUAGES} ...${shared} /><//>
    <${Field} id="office-date-style" label="Dates written as" help="How the console writes a day." error=${error} field="date_style">
      <${Choice} id="office-date-style" name="date_style" options=${DATE_STYLES.map((style) => [style, EXAMPLE[style]])} ...${shared} /><//>
    <${Field} id="office-clock" label="Times written as" help="How the console writes a time of day." error=${error} field="clock">
      <${Choice} id="office-clock" name="clock" options=${CLOCKS} ...${shared} /><//>
    <${StepActions} error=${error} busy=${busy} label="Save the office" />
  </form>`;
}

export default function OfficeStep() {
  const { api } = useConsole();
  const found = useLoad(({ signal }) => api.get("/office", {}, { signal }), []);
  return html`<${StepScreen} title="Your office" intro="Your band's name, where it plays and how it writes money, dates and times.">
    <${ErrorMessage} error=${found.error} />
    ${found.answer ? html`<${OfficeForm} office=${found.answer.data} />` : found.error ? null : html`<${Loading} />`}
  <//>`;
}
