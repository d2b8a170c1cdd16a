// A record's form made from the OpenAPI document (SPEC §12, screen 6): a new record's fields from the create
// schema, an existing one's from the record (those the patch schema leaves out shown, not editable), required
// fields marked, the custom fields of §4.7 (from /custom-fields) under the record's own. A save sends what was
// typed (a change: only what changed); a 422 keeps it all and says why at each field, a 409 says why in words.
// What a create answers once and the record never shows again (a webhook's secret) is shown once. Delete asks
// first; a 409 `resource_in_use` names what still refers to the record, each linked to the list of them.
//
//   <${RecordForm} collection=${described} doc=${doc} id=${id or null} basePath="/records/teams" onRecord=${setRecord} />
//   onRecord(record): the record as read, and as each save answered (its page's heading is its name)

import { ApiError } from "../api.js";
import { ErrorMessage, Loading } from "../components/index.js";
import { ShownOnce } from "../components/shown_once.js";
import { useConsole } from "../context.js";
import { html, useEffect, useState } from "../lib.js";
import { useLoad, useWrite } from "../load.js";
import { listPath } from "../paths.js";
import { navigate } from "../router.js";
import { collectionWords, labelOf, usableBy } from "./document.js";
import { FieldInput, FieldText, toControl, toJson } from "./fields.js";
import { recordLabel } from "./label.js";
import { expansions } from "./list.js";

const STAMPS = ["id", "created_at", "updated_at"];
const CUSTOM_KINDS = { text: "text", number: "number", boolean: "boolean", date: "date", select: "enum" };

/** A custom field's definition as a field of the form, keyed `custom_fields.KEY` as a 422 names it. */
function customField(definition) {
  return {
    name: `custom_fields.${definition.key}`,
    key: definition.key,
    label: definition.label,
    kind: CUSTOM_KINDS[definition.field_type] || "text",
    enum: definition.options || null,
    required: definition.required,
    nullable: !definition.required,
    custom: true,
  };
}

function useLoaded(collection, doc, id) {
  const { api, me } = useConsole();
  const found = useLoad(async () => {
    const hasCustom = collection.fields.some((field) => field.kind === "custom");
    const definitions =
      hasCustom && doc.collection("custom-fields")?.mayView(me)
        ? api.get("/custom-fields", { "filter[resource][eq]": collection.name.replace(/-/g, "_"), limit: 200 })
        : Promise.resolve({ data: [] });
    const expand = expansions(collection, doc, me);
    const record = id ? api.get(`${collection.path}/${encodeURIComponent(id)}`, { expand: expand.join(",") || null }) : Promise.resolve(null);
    const [answer, custom] = await Promise.all([record, definitions]);
    return { record: answer ? answer.data : null, custom: custom.data.map(customField) };
  }, [collection.path, id]);
  return [found.answer, found.error];
}

/** The values a form starts with: the record's, or a new record's defaults. */
function startingValues(fields, custom, record) {
  const values = {};
  for (const field of fields) {
    const stored = record ? record[field.name] : field.defaultValue;
    values[field.name] = toControl(field, stored);
  }
  for (const field of custom) values[field.name] = toControl(field, record ? (record.custom_fields || {})[field.key] : undefined);
  return values;
}

/** The body of the save: every filled field of a new record, or what changed since `original` (the values the
 * form started with, or those of the last save). */
function bodyOf(fields, custom, values, original) {
  const body = {};
  for (const field of fields) {
    const value = toJson(field, values[field.name]);
    if (original ? JSON.stringify(value) !== JSON.stringify(toJson(field, original[field.name])) : value !== null) {
      body[field.name] = value;
    }
  }
  const customBody = {};
  for (const field of custom) {
    const value = toJson(field, values[field.name]);
    const before = original ? toJson(field, original[field.name]) : null;
    if (JSON.stringify(value) !== JSON.stringify(before) && !(value === null && !original)) customBody[field.key] = value;
  }
  if (Object.keys(customBody).length > 0) body.custom_fields = customBody;
  return body;
}

/** {field: [messages]} of a 422 or a 409 already_exists, and the messages no field of the form shows. */
function fieldErrors(error, shownNames, collectionName) {
  if (!(error instanceof ApiError)) return { atFields: {}, elsewhere: [] };
  let details = {};
  if (error.status === 422 && error.details) details = error.details;
  if (error.code === "already_exists" && error.details?.fields) {
    details = Object.fromEntries(error.details.fields.map((name) => [name, ["Another record already has this."]]));
  }
  const atFields = {};
  const elsewhere = [];
  for (const [name, messages] of Object.entries(details)) {
    const list = Array.isArray(messages) ? messages : [String(messages)];
    const shown = shownNames.has(name) ? name : shownNames.has(name.split(".")[0]) ? name.split(".")[0] : null;
    if (shown) atFields[shown] = [...(atFields[shown] || []), ...list];
    else elsewhere.push(`${labelOf(name, collectionName)}: ${list.join(" ")}`);
  }
  return { atFields, elsewhere };
}

function Field({ field, value, onChange, errors, record, currency }) {
  const id = `field-${field.name.replace(/[^a-z0-9_]/gi, "-")}`;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors && errors.length);
  const hint = field.help ? html`<span class="field-hint" id=${`${id}-help`}>${field.help}</span>` : null;
  return html`<div class=${`record-field kind-${field.kind}${invalid ? " invalid" : ""}`}>
    ${field.kind === "reference"
      ? null
      : html`<label for=${id}>${field.label}${field.required ? html`<span class="required" aria-hidden="true"> *</span>` : null}</label>`}
    <${FieldInput} field=${field} value=${value} onChange=${onChange} id=${id} invalid=${invalid} describedBy=${invalid ? errorId : hint ? `${id}-help` : null} record=${record} currency=${currency} />
    ${invalid ? html`<p class="field-error" id=${errorId}>${errors.join(" ")}</p>` : hint}
  </div>`;
}

function ReadOnly({ fields, record }) {
  const shown = fields.filter((field) => record[field.name] !== null && record[field.name] !== undefined && field.kind !== "custom");
  if (shown.length === 0) return null;
  return html`<dl class="read-only">
    ${shown.map((field) => html`<div><dt>${field.label}</dt><dd><${FieldText} field=${field} record=${record} /></dd></div>`)}
  </dl>`;
}

/** What the create answered beyond the record (a secret): each shown once, then on to the record. */
function AnsweredOnce({ extra, next }) {
  return html`<div class="answered-once">
    ${Object.entries(extra).map(([name, value]) => html`<${ShownOnce} label=${labelOf(name)} value=${String(value)} />`)}
    <p><a href=${next}>Continue</a></p>
  </div>`;
}

function InUse({ error, doc, collection, id }) {
  const users = Object.entries(error.details?.referenced_by || {});
  return html`<div class="error" role="alert">
    <p>${error.message} What still uses it:</p>
    <ul>${users.map(([table, count]) => {
      const name = table.replace(/_/g, "-");
      const field = doc.referringField(name, collection.name);
      const href = listPath(name, field ? { [`filter[${field}][eq]`]: id } : {});
      return html`<li><a href=${href}>${count} ${collectionWords(name)[0].toLowerCase()}</a></li>`;
    })}</ul>
  </div>`;
}

function DeleteButton({ collection, doc, id, basePath, noun }) {
  const { api } = useConsole();
  const [asking, setAsking] = useState(false);
  const { error, run } = useWrite();
  async function remove() {
    const deleted = await run(async () => {
      await api.delete(`${collection.path}/${encodeURIComponent(id)}`);
      navigate(basePath, { replace: true });
    });
    if (!deleted) setAsking(false);
  }
  return html`<div class="delete">
    ${asking
      ? html`<p>Delete ${noun}? This cannot be undone.</p>
          <button type="button" class="danger" onClick=${remove}>Yes, delete</button>
          <button type="button" class="quiet" onClick=${() => setAsking(false)}>Keep it</button>`
      : html`<button type="button" class="danger quiet" onClick=${() => setAsking(true)}>Delete…</button>`}
    ${error && error.code === "resource_in_use"
      ? html`<${InUse} error=${error} doc=${doc} collection=${collection} id=${id} />`
      : html`<${ErrorMessage} error=${error} />`}
  </div>`;
}

const created = new Set(); // ids just made here: their record page says "Created" once

/** Whether the record `id` was just made by this page's form (then forgotten: a reload does not say it again). */
export function justCreated(id) {
  return created.delete(id);
}

export function RecordForm({ collection, doc, id, basePath, onRecord }) {
  const { api, me, office } = useConsole();
  const [loaded, loadError] = useLoaded(collection, doc, id);
  const creating = !id;
  const usable = usableBy(me);
  const editable = (creating ? collection.createFields : collection.mayChange(me) ? collection.patchFields : []) || [];
  const editableNames = new Set(editable.filter(usable).map((f) => f.name));
  // required is what a create needs: a record's schema marks every field it always carries as required
  const requiredNames = new Set((collection.createFields || []).filter((f) => f.required).map((f) => f.name));
  const fields = (creating ? collection.createFields || [] : collection.fields)
    .filter((field) => editableNames.has(field.name) && field.kind !== "custom")
    .map((field) => ({ ...field, required: requiredNames.has(field.name) }));
  const readOnly = creating ? [] : collection.fields.filter((field) => usable(field) && !editableNames.has(field.name) && !STAMPS.includes(field.name));
  const custom = loaded && (editableNames.has("custom_fields") ? loaded.custom : []);
  const [values, setValues] = useState(null);
  const [original, setOriginal] = useState(null);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(null);
  const [extra, setExtra] = useState(null);
  useEffect(() => {
    if (!loaded) return;
    if (loaded.record && onRecord) onRecord(loaded.record);
    setValues(startingValues(fields, custom, loaded.record));
    setOriginal(loaded.record ? startingValues(fields, custom, loaded.record) : null);
  }, [loaded]);
  if (loadError) return html`<${ErrorMessage} error=${loadError} />`;
  if (!loaded || !values) return html`<${Loading} />`;
  if (extra) return html`<${AnsweredOnce} extra=${extra.values} next=${extra.next} />`;

  const shownNames = new Set([...fields, ...custom].map((field) => field.name));
  const { atFields, elsewhere } = fieldErrors(error, shownNames, collection.name);
  const setValue = (name) => (value) => setValues((now) => ({ ...now, [name]: value }));
  const noun = loaded.record ? `“${recordLabel(loaded.record)}”` : "this record";

  async function save(event) {
    event.preventDefault();
    setSaved(null);
    const body = bodyOf(fields, custom, values, original);
    try {
      if (creating) {
        const made = (await api.post(collection.path, body)).data;
        const known = new Set(collection.fields.map((field) => field.name));
        const once = Object.fromEntries(Object.entries(made).filter(([name]) => !known.has(name)));
        const next = `${basePath}/${encodeURIComponent(made.id)}`;
        created.add(made.id);
        if (Object.keys(once).length > 0) return setExtra({ values: once, next });
        return navigate(next, { replace: true });
      }
      if (Object.keys(body).length === 0) return setSaved("Nothing changed.");
      const changed = (await api.patch(`${collection.path}/${encodeURIComponent(id)}`, body)).data;
      setOriginal(startingValues(fields, custom, changed));
      if (onRecord) onRecord(changed);
      setError(null);
      setSaved("Saved.");
    } catch (failure) {
      setError(failure);
    }
  }

  const generalError = error && (elsewhere.length > 0 || Object.keys(atFields).length === 0);
  return html`<div class="record-form">
    ${readOnly.length && loaded.record ? html`<${ReadOnly} fields=${readOnly} record=${loaded.record} />` : null}
    ${fields.length + custom.length > 0
      ? html`<form onSubmit=${save} novalidate>
          ${generalError
            ? html`<div class="error" role="alert"><p>${error.message}</p>${elsewhere.length ? html`<ul>${elsewhere.map((line) => html`<li>${line}</li>`)}</ul>` : null}</div>`
            : error
              ? html`<p class="error" role="alert">${error.message} See the fields marked below.</p>`
              : null}
          ${fields.map((field) => html`<${Field} field=${field} value=${values[field.name]} onChange=${setValue(field.name)} errors=${atFields[field.name]} record=${loaded.record}
            currency=${values.currency || (loaded.record && loaded.record.currency) || office.currency} />`)}
          ${custom.length > 0
            ? html`<fieldset class="custom-fields"><legend>Custom fields</legend>
                ${custom.map((field) => html`<${Field} field=${field} value=${values[field.name]} onChange=${setValue(field.name)} errors=${atFields[field.name]} />`)}
              </fieldset>`
            : null}
          <div class="form-actions">
            <button type="submit">${creating ? "Create" : "Save"}</button>
            <a href=${basePath}>${creating ? "Cancel" : "Back to the list"}</a>
            <span class="saved" role="status">${saved || ""}</span>
          </div>
        </form>`
      : null}
    ${!creating && collection.mayDelete(me)
      ? html`<${DeleteButton} collection=${collection} doc=${doc} id=${id} basePath=${basePath} noun=${noun} />`
      : null}
  </div>`;
}
