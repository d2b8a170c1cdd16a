// One field of a record as a form control and as text (SPEC §12, screen 6): enums as choices, references as
// searchable pickers, native date and time inputs, booleans as checkboxes, lists one item a line. A field is as
// document.js describes it; a form keeps each value as its control holds it and turns it into JSON with toJson.

import { MoneyInput } from "../components/money_input.js";
import { ReferencePicker } from "../components/reference_picker.js";
import { useConsole } from "../context.js";
import { amount, date, moment } from "../format.js";
import { html, useState } from "../lib.js";
import { useLoad } from "../load.js";
import { recordPath } from "../paths.js";
import { recordLabel } from "./label.js";

/** A stored value as its control holds it: text for inputs, a boolean for a checkbox, lines for a list. */
export function toControl(field, value) {
  if (field.kind === "boolean") return Boolean(value);
  if (field.money) return typeof value === "number" ? value : "";
  if (value === null || value === undefined) return "";
  if (field.kind === "list") return value.join("\n");
  return String(value);
}

/** What a control holds as the JSON the API reads (null for an emptied control). */
export function toJson(field, held) {
  if (field.kind === "boolean") return Boolean(held);
  if (field.kind === "list") return String(held).split("\n").map((line) => line.trim()).filter(Boolean);
  if (field.money && typeof held === "number") return held;
  const text = typeof held === "string" ? held.trim() : held;
  if (text === "" || text === null || text === undefined) return null;
  if (field.kind === "integer" || field.kind === "number") return Number.isNaN(Number(text)) ? text : Number(text);
  return text;
}

const INPUT_TYPES = { date: "date", time: "time", email: "email", url: "url", integer: "number", number: "number" };

/** The control of `field`, holding `value`; onChange(newValue). `record` (the stored one, read with its references
 * expanded) gives a picker the referenced record's name. */
export function FieldInput({ field, value, onChange, id, invalid, describedBy, record, currency }) {
  const common = {
    id,
    "aria-invalid": invalid ? "true" : null,
    "aria-describedby": describedBy || null,
    required: field.required && field.kind !== "boolean",
  };
  if (field.kind === "reference") {
    return html`<${ReferenceInput} field=${field} value=${value || null} id=${id} chosenRecord=${record && record[field.name.slice(0, -3)]}
      onChange=${(chosen) => onChange(chosen || "")} />`;
  }
  if (field.money) {
    return html`<${MoneyInput} id=${id} cents=${value} currency=${currency} required=${common.required} invalid=${invalid} describedBy=${describedBy}
      onChange=${(cents) => onChange(cents === null ? "" : cents)} />`;
  }
  if (field.kind === "boolean") {
    return html`<input ...${common} type="checkbox" checked=${Boolean(value)} onChange=${(event) => onChange(event.currentTarget.checked)} />`;
  }
  if (field.kind === "enum") {
    return html`<select ...${common} value=${value} onChange=${(event) => onChange(event.currentTarget.value)}>
      ${!field.required || field.nullable ? html`<option value="">—</option>` : null}
      ${field.enum.map((choice) => html`<option value=${choice}>${choice.replace(/_/g, " ")}</option>`)}
    </select>`;
  }
  if (field.kind === "longtext" || field.kind === "list") {
    return html`<textarea ...${common} rows=${field.kind === "list" ? 3 : 4} value=${value}
      onInput=${(event) => onChange(event.currentTarget.value)}></textarea>`;
  }
  const type = INPUT_TYPES[field.kind] || "text";
  const placeholder = field.kind === "timestamp" ? "2027-06-12T14:00:00Z" : null;
  return html`<input ...${common} type=${type} value=${value} placeholder=${placeholder} step=${field.kind === "number" ? "any" : null}
    onInput=${(event) => onChange(event.currentTarget.value)} />`;
}

/** A reference held as an id (a form's value, a filter in the address) in the shared picker, which holds the
 * record: the record comes from the expanded read (`chosenRecord`) or is read once. The picker's label is the
 * field's (a required one marked with *). */
export function ReferenceInput({ field, value, id, chosenRecord, onChange }) {
  const { api } = useConsole();
  const [picked, setPicked] = useState(chosenRecord);
  const known = picked && picked.id === value ? picked : null;
  const read = useLoad(
    () => (!value || known ? Promise.resolve(null) : api.get(`/${field.reference}/${encodeURIComponent(value)}`).then(({ data }) => data, () => ({ id: value }))),
    [value],
  );
  const record = known || (read.answer && read.answer.id === value ? read.answer : null);
  const choose = (chosen) => {
    setPicked(chosen);
    onChange(chosen ? chosen.id : null);
  };
  return html`<${ReferencePicker} id=${id} label=${field.required ? `${field.label} *` : field.label} collection=${field.reference} value=${record}
    text=${recordLabel} sort=${field.referenceSort} optional=${!field.required} onChange=${choose} />`;
}

/** A stored value as words; a reference as the referenced record's name (when embedded), linked. */
export function FieldText({ field, record }) {
  const value = record[field.name];
  if (field.kind === "reference") {
    if (!value) return "";
    const embedded = record[field.name.slice(0, -3)];
    return html`<a href=${recordPath(field.reference, value)}>${embedded ? recordLabel(embedded) : `#${value.slice(0, 8)}`}</a>`;
  }
  if (value === null || value === undefined) return "";
  switch (field.kind) {
    case "boolean":
      return value ? "Yes" : "No";
    case "date":
      return date(value);
    case "timestamp":
      return moment(value);
    case "list":
      return value.join(", ");
    case "enum":
      return String(value).replace(/_/g, " ");
    case "object":
    case "custom":
      return objectText(value);
  }
  if (field.money && typeof value === "number") {
    return amount(value, record);
  }
  return String(value);
}

function objectText(value) {
  if (value && typeof value === "object" && "state" in value) return String(value.state);
  const shown = Object.entries(value || {}).filter(([, one]) => one !== null && typeof one !== "object");
  return shown.map(([key, one]) => `${key}: ${one}`).join(", ");
}
