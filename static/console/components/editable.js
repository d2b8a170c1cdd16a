// A field edited in place (SPEC §12: every field editable in place, a PATCH of what changed): its value shown as a
// button; a click or Enter opens the input, Enter (or Save) saves, Esc (or Cancel) puts the value back. A refused
// save keeps what was typed and says why beside the field (the 422's details for this field, else its message).
//
//   <${EditableField} label="Phone" name="phone" value=${member.phone} canEdit=${can(me, "people.edit")}
//     save=${(value) => api.patch(`/staff-members/${id}`, {phone: value})} onSaved=${setMember} />

import { ApiError } from "../api.js";
import { html, useLayoutEffect, useRef, useState } from "../lib.js";

function reasonOf(error, name) {
  if (error instanceof ApiError && error.details && error.details[name]) return String(error.details[name]);
  return error.message || "This could not be saved.";
}

/** What is typed turned into what is sent: an emptied optional field becomes null. */
function valueOf(draft, required) {
  const trimmed = draft.trim();
  return trimmed === "" && !required ? null : draft;
}

function Editor({ label, name, value, type, multiline, required, save, onSaved, onClose }) {
  const [draft, setDraft] = useState(value ?? "");
  const [problem, setProblem] = useState(null);
  const [saving, setSaving] = useState(false);
  const input = useRef(null);
  const id = `field-${name}`;
  useLayoutEffect(() => input.current && input.current.focus(), []);

  async function submit(event) {
    event.preventDefault();
    const next = valueOf(draft, required);
    if (next === (value ?? null)) return onClose();
    setSaving(true);
    try {
      onSaved((await save(next)).data);
      onClose();
    } catch (error) {
      setProblem(reasonOf(error, name));
      setSaving(false);
    }
  }

  function onKeyDown(event) {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  }

  const common = {
    id,
    ref: input,
    value: draft,
    onInput: (event) => setDraft(event.target.value),
    onKeyDown,
    "aria-invalid": problem ? "true" : undefined,
    "aria-describedby": problem ? `${id}-problem` : undefined,
  };
  return html`<form class="editable-form" noValidate onSubmit=${submit}>
    <label for=${id} class="visually-hidden">${label}</label>
    ${multiline ? html`<textarea rows="4" ...${common} />` : html`<input type=${type || "text"} ...${common} />`}
    <span class="editable-actions">
      <button type="submit" disabled=${saving}>Save</button>
      <button type="button" class="quiet" onClick=${onClose}>Cancel</button>
    </span>
    ${problem ? html`<p class="field-problem error" id=${`${id}-problem`} role="alert">${problem}</p>` : null}
  </form>`;
}

export function EditableField(props) {
  const { label, value, canEdit } = props;
  const [editing, setEditing] = useState(false);
  const shown = value === null || value === undefined || value === "" ? "—" : String(value);
  let body;
  if (editing) body = html`<${Editor} ...${props} onClose=${() => setEditing(false)} />`;
  else if (canEdit)
    body = html`<button type="button" class="editable" aria-label=${`${label}: ${shown}. Edit`} onClick=${() => setEditing(true)}>
      ${shown}
    </button>`;
  else body = html`<span class="person-field-text">${shown}</span>`;
  return html`<div class="person-field"><dt>${label}</dt><dd>${body}</dd></div>`;
}

/** A yes/no field: a checkbox saved as soon as it changes (with people.edit), else the word. */
export function EditableCheckbox({ label, name, value, canEdit, save, onSaved }) {
  const [problem, setProblem] = useState(null);
  const id = `field-${name}`;
  if (!canEdit) return html`<div class="person-field"><dt>${label}</dt><dd>${value ? "Yes" : "No"}</dd></div>`;
  async function change(event) {
    const checked = event.target.checked;
    try {
      setProblem(null);
      onSaved((await save(checked)).data);
    } catch (error) {
      event.target.checked = !checked;
      setProblem(reasonOf(error, name));
    }
  }
  return html`<div class="person-field"><dt><label for=${id}>${label}</label></dt><dd>
    <input type="checkbox" id=${id} checked=${Boolean(value)} onChange=${change} />
    ${problem ? html`<p class="field-problem error" role="alert">${problem}</p>` : null}
  </dd></div>`;
}
