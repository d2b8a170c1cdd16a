// Admin's letterhead (SPEC §15): what quotes, contracts and invoices print of the office: its address, how clients
// reach it, its tax and bank details (PATCH /office; a refusal said at its field, the IBAN's and BIC's included), and
// its logo (PUT /office/logo, a PNG or SVG; DELETE to remove it), shown as the API keeps it. Who may not change the
// office's settings (admin.edit) reads them here.

import { ErrorMessage, Loading } from "../../components/index.js";
import { Field, TextInput, describedBy } from "../../components/guided_field.js";
import { SaveError, fieldMessage, useFocusOnInvalid } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { followOffice } from "../../format.js";
import { Happened } from "../../happened.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";

// a part of the form: its legend, and per field its name, label, one line of help and its kind of input
const PARTS = [
  ["Address", [
    ["address_line1", "Street and number", "The first line under the band's name."],
    ["address_line2", "Second line", "A building, floor or c/o, if any."],
    ["postal_code", "Postal code", ""],
    ["city", "Town or city", ""],
    ["country", "Country", "Two letters, such as AT, DE or CH."],
  ]],
  ["How clients reach you", [
    ["email", "E-mail", "Where clients write to.", "email"],
    ["phone", "Phone", "", "tel"],
    ["website", "Website", "Starting with https://", "url"],
  ]],
  ["Tax", [
    ["vat_id", "VAT number", "Such as ATU12345678: printed on every invoice."],
    ["company_register", "Company register", "The court and number of your entry, if you have one."],
    ["tax_note", "Note on invoices without VAT", "Printed when an invoice charges none, e.g. a small-business exemption.", "textarea"],
  ]],
  ["Bank", [
    ["iban", "IBAN", "Clients pay to it; spaces are fine.", "text", "off"],
    ["bic", "BIC", "8 or 11 characters, also called the SWIFT code.", "text", "off"],
    ["bank_name", "Bank", "Its name, as on your statements."],
  ]],
  ["Invoices", [
    ["invoice_footer", "Footer", "At the foot of every invoice: a thank-you, your terms of payment.", "textarea"],
  ]],
];
const NAMES = PARTS.flatMap(([, fields]) => fields.map(([name]) => name));

function TextArea({ id, name, values, setValues, error }) {
  return html`<textarea id=${id} name=${name} rows="3" value=${values[name] || ""}
    aria-invalid=${fieldMessage(error, name) ? "true" : undefined} aria-describedby=${describedBy(id, error, name)}
    onInput=${(event) => setValues({ ...values, [name]: event.target.value })}></textarea>`;
}

function LetterheadForm({ office, editable, onSaving, onSaved }) {
  const { api } = useConsole();
  const [values, setValues] = useState(() => Object.fromEntries(NAMES.map((name) => [name, office[name] || ""])));
  const { error, busy, run } = useWrite();
  const form = useFocusOnInvalid(error);
  const shared = { values, setValues, error };
  const submit = (event) => {
    event.preventDefault();
    onSaving();
    run(async () => {
      const saved = (await api.patch("/office", values)).data;
      setValues(Object.fromEntries(NAMES.map((name) => [name, saved[name] || ""])));
      onSaved(saved, "Saved the letterhead.");
    });
  };
  return html`<form class="guided-form letterhead-form" onSubmit=${submit} ref=${form} novalidate>
    <fieldset class="letterhead-fields" disabled=${!editable}>
      ${PARTS.map(([legend, fields]) => html`<fieldset class="letterhead-part">
        <legend>${legend}</legend>
        ${fields.map(([name, label, help, type = "text", autocomplete]) => {
          const id = `letterhead-${name.replaceAll("_", "-")}`;
          const input = type === "textarea"
            ? html`<${TextArea} id=${id} name=${name} ...${shared} />`
            : html`<${TextInput} id=${id} name=${name} type=${type} autocomplete=${autocomplete} ...${shared} />`;
          return html`<${Field} id=${id} label=${label} help=${help} error=${error} field=${name}>${input}<//>`;
        })}
      </fieldset>`)}
    </fieldset>
    ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
    ${error && error.status === 422 ? html`<p class="error" role="alert">Not saved yet: see the fields marked above.</p>` : null}
    ${editable ? html`<div class="actions"><button type="submit" disabled=${busy}>Save the letterhead</button></div>` : null}
  </form>`;
}

/** The URL of an object URL made of `blob` while it is shown (null without one). */
function useObjectUrl(blob) {
  const [url, setUrl] = useState(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

function LogoPart({ office, editable, onSaving, onSaved }) {
  const { api } = useConsole();
  const logo = office.logo;
  const image = useLoad(() => (logo ? api.blob("/office/logo") : Promise.resolve(null)), [logo && logo.sha256]);
  const url = useObjectUrl(logo ? image.answer : null);
  const writing = useWrite();
  const choose = (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const form = new FormData();
    form.append("file", file, file.name);
    onSaving();
    writing.run(async () => onSaved((await api.upload("/office/logo", form, null, "PUT")).data, "Saved the logo."));
  };
  const remove = () => {
    onSaving();
    writing.run(async () => {
      await api.delete("/office/logo");
      onSaved({ ...office, logo: null }, "Removed the logo.");
    });
  };
  const said = fieldMessage(writing.error, "file");
  return html`<section class="letterhead-logo" aria-labelledby="letterhead-logo-heading">
    <h2 id="letterhead-logo-heading">Logo</h2>
    <p class="help" id="letterhead-logo-help">At the top of every quote, contract and invoice: a PNG or SVG of at most 256 KB.</p>
    <div class="logo-preview">
      ${logo && url ? html`<img src=${url} alt="The office's logo" />` : null}
      ${logo ? null : html`<p class="muted">No logo yet.</p>`}
      <${ErrorMessage} error=${image.error} />
    </div>
    ${editable
      ? html`<div class="actions">
          <label class="file-choice" for="letterhead-logo-file">${logo ? "Choose another logo…" : "Choose a logo…"}</label>
          <input id="letterhead-logo-file" class="visually-hidden" type="file" accept="image/png,image/svg+xml"
            aria-describedby=${said ? "letterhead-logo-help letterhead-logo-message" : "letterhead-logo-help"}
            disabled=${writing.busy} onChange=${choose} />
          ${logo ? html`<button type="button" class="quiet" disabled=${writing.busy} onClick=${remove}>Remove the logo</button>` : null}
        </div>`
      : null}
    ${said
      ? html`<p class="error field-error" id="letterhead-logo-message" role="alert">${said}</p>`
      : html`<${SaveError} error=${writing.error} id="letterhead-logo-message" />`}
  </section>`;
}

export default function Letterhead() {
  const { api, me } = useConsole();
  const found = useLoad(({ signal }) => api.get("/office", {}, { signal }), []);
  const [said, setSaid] = useState(null);
  const editable = can(me, "admin.edit");
  const onSaving = () => setSaid(null);
  const onSaved = (office, words) => {
    followOffice(office);
    found.update(() => ({ data: office }));
    setSaid(words);
  };
  const office = found.answer && found.answer.data;
  return html`<section class="screen letterhead">
    <header class="screen-header"><h1>Letterhead</h1><a href="/admin">Back to Admin</a></header>
    <p class="intro">What your quotes, contracts and invoices say about the band: address, tax and bank details, and the logo.</p>
    <${Happened} words=${said} />
    <${ErrorMessage} error=${found.error} />
    ${office
      ? html`<${LogoPart} office=${office} editable=${editable} onSaving=${onSaving} onSaved=${onSaved} />
          <${LetterheadForm} office=${office} editable=${editable} onSaving=${onSaving} onSaved=${onSaved} />`
      : found.error ? null : html`<${Loading} />`}
  </section>`;
}
