// One field of a guided form (SPEC §12.1: the first day's steps, Add musician, Add contact): its label, one line
// of help in the office's words under it, and what a 422 said about it.
//
//   <${Field} id="product-name" label="Name" help="As the client reads it on a quote" error=${error} field="name">
//     <input id="product-name" ... aria-describedby=${describedBy("product-name", error, "name")} />
//   <//>

import { html } from "../lib.js";
import { fieldMessage } from "./save_error.js";

/** The ids of a field's help and error lines, for its control's aria-describedby. */
export function describedBy(id, error, field) {
  return [`${id}-help`, fieldMessage(error, field) ? `${id}-message` : null].filter(Boolean).join(" ");
}

export function Field({ id, label, help, error, field, children }) {
  const said = fieldMessage(error, field);
  return html`<div class="form-field">
    <label for=${id}>${label}</label>
    ${children}
    ${help ? html`<p class="help" id=${`${id}-help`}>${help}</p>` : null}
    ${said ? html`<p class="error field-error" id=${`${id}-message`} role="alert">${said}</p>` : null}
  </div>`;
}

/** A text input of a guided form kept in `values` (a field per name), given to setValues on input. */
export function TextInput({ id, name, values, setValues, error, type = "text", ...extra }) {
  return html`<input id=${id} name=${name} type=${type} value=${values[name] || ""}
    aria-invalid=${fieldMessage(error, name) ? "true" : undefined} aria-describedby=${describedBy(id, error, name)}
    onInput=${(event) => setValues({ ...values, [name]: event.target.value })} ...${extra} />`;
}

/** The values that were typed (empty ones left out), as a create's body. */
export function typed(values) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "" && value !== null));
}
