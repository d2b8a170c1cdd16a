// A field edited in place (SPEC §12: the gig page, a staff member, a contact; the console's one in-place editor):
// its value shown as a button; a click or Enter opens the input, Esc puts the value back, Enter (not in a text
// area) or leaving the field saves it when it changed. While saving fails the input stays open with what was typed:
// a 422 says why beside it, a 409 in words with a link. A value changed by someone else while this person edits it
// is not put over what they typed: "Changed by someone else".
//
//   <${InPlace} id="gig-title" label="Title" type="text" value=${gig.title} editable=${canEdit}
//     onSave=${(value) => save({title: value})} error=${...} />
//
// type: text | textarea | number | date | time | email | tel | select (options [[value, words]]) | checkbox | reference
// (picker: the ReferencePicker's props, record: the record referenced). onSave(value) returns a promise that
// rejects with the ApiError; `field` names the field in a 422's details (default: the id's).

import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib.js";
import { ReferencePicker } from "./reference_picker.js";
import { SaveError, fieldMessage } from "./save_error.js";

const SAVED_MS = 2500;

/** What an input's text means for the API: "" is null (nothing), a number field's text its number. */
export function apiValue(type, text) {
  if (type === "checkbox" || type === "reference") return text;
  if (text === "" || text === null || text === undefined) return null;
  if (type === "number") return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

function inputText(value) {
  return value === null || value === undefined ? "" : String(value);
}

function Shown({ text, placeholder }) {
  return text === "" ? html`<span class="empty">${placeholder || "—"}</span>` : text;
}

function Editor({ props, draft, setDraft, finish, cancel, describedBy, invalid }) {
  const { id, type, options } = props;
  const input = useRef(null);
  useLayoutEffect(() => input.current && input.current.focus(), []);
  const onKeyDown = (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    } else if (event.key === "Enter" && type !== "textarea") {
      event.preventDefault();
      finish();
    }
  };
  const common = {
    id,
    ref: input,
    value: draft,
    "aria-describedby": describedBy,
    "aria-invalid": invalid ? "true" : undefined,
    onInput: (event) => setDraft(event.target.value),
    onBlur: () => finish(),
    onKeyDown,
  };
  if (type === "textarea") return html`<textarea ...${common} rows="4" />`;
  if (type === "select") {
    return html`<select ...${common} onChange=${(event) => setDraft(event.target.value)}>
      <option value="">—</option>
      ${options.map(([value, words]) => html`<option value=${value}>${words}</option>`)}
    </select>`;
  }
  return html`<input ...${common} type=${type} step=${type === "number" ? "any" : undefined} />`;
}

export function InPlace(props) {
  const { id, label, type = "text", value, editable, onSave } = props;
  const field = props.field || id;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [startedFrom, setStartedFrom] = useState(null);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const saving = useRef(false);
  const isOpen = useRef(false); // a blur after Enter or Esc (the input going away) must not save again
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const open = () => {
    setDraft(inputText(value));
    setStartedFrom(value);
    setError(null);
    setEditing(true);
    isOpen.current = true;
  };
  const cancel = () => {
    isOpen.current = false;
    setEditing(false);
    setError(null);
  };
  const save = async (next) => {
    if (saving.current) return;
    saving.current = true;
    try {
      await onSave(next);
      isOpen.current = false;
      setEditing(false);
      setError(null);
      setSaved(true);
    } catch (failure) {
      setError(failure);
      setEditing(type !== "checkbox");
    } finally {
      saving.current = false;
    }
  };
  const finish = () => {
    if (!isOpen.current) return;
    const next = apiValue(type, draft);
    if (inputText(next) === inputText(startedFrom) && !error) return cancel();
    save(next);
  };

  const messageId = `${id}-message`;
  const atField = fieldMessage(error, field);
  const changedElsewhere = editing && inputText(value) !== inputText(startedFrom);
  const text = props.display !== undefined ? props.display : inputText(value);
  const notes = html`
    ${atField ? html`<p class="error field-error" id=${messageId} role="alert">${atField}</p>` : null}
    ${error && !atField ? html`<${SaveError} error=${error} id=${messageId} />` : null}
    ${changedElsewhere ? html`<p class="changed-elsewhere" role="status">Changed by someone else: now “${props.display !== undefined ? props.display : inputText(value)}”.</p>` : null}
    <span class="saved" role="status">${saved ? "Saved" : ""}</span>`;

  if (type === "checkbox") {
    return html`<div class="field in-place">
      <label class="check"><input id=${id} type="checkbox" checked=${Boolean(value)} disabled=${!editable}
        onChange=${(event) => save(event.target.checked)} /> ${label}</label>
      ${notes}
    </div>`;
  }
  if (!editable) {
    return html`<div class="field in-place"><span class="field-label">${label}</span>
      <span class="field-value"><${Shown} text=${text} /></span></div>`;
  }
  if (!editing) {
    return html`<div class=${`field in-place ${props.wide ? "wide-on-phone" : ""}`}><span class="field-label" id=${`${id}-label`}>${label}</span>
      <button type="button" class="field-value edit" aria-labelledby=${`${id}-label ${id}-shown`} onClick=${open}>
        <span id=${`${id}-shown`}><${Shown} text=${text} placeholder=${props.placeholder || "Add…"} /></span>
      </button>${notes}</div>`;
  }
  if (type === "reference") {
    return html`<div class=${`field in-place editing ${props.wide ? "wide-on-phone" : ""}`}>
      <${ReferencePicker} ...${props.picker} id=${id} label=${label} value=${props.record} autoFocus=${true}
        onChange=${(record) => save(record ? record.id : null)} onCancel=${cancel} />
      ${notes}</div>`;
  }
  return html`<div class=${`field in-place editing ${props.wide ? "wide-on-phone" : ""}`}>
    <label for=${id} class="field-label">${label}</label>
    <${Editor} props=${props} draft=${draft} setDraft=${setDraft} finish=${finish} cancel=${cancel}
      describedBy=${error || changedElsewhere ? messageId : undefined} invalid=${Boolean(error)} />
    ${notes}</div>`;
}
