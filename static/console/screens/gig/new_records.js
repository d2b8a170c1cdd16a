// Records made on the way (SPEC §12 journey 2): a new venue or a new client contact created from their picker,
// in a small form of the fields that matter at that moment (the rest is edited on the record's own page).
// A form's Enter saves it and Esc closes it; a 422 keeps what was typed and says why at the field.

import { fieldMessage } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { html, useLayoutEffect, useRef, useState } from "../../lib.js";
import { useWrite } from "../../load.js";

export const venueText = (venue) => [venue.name, venue.city].filter(Boolean).join(", ");
export const contactText = (contact) =>
  [[contact.first_name, contact.last_name].filter(Boolean).join(" "), contact.company].filter(Boolean).join(" · ");

function SmallForm({ title, collection, fields, start, onCreated, onCancel }) {
  const { api } = useConsole();
  const [values, setValues] = useState(start);
  const { error, run } = useWrite();
  const first = useRef(null);
  // focused as the form appears, not a frame later: a later focus takes what is being typed into another field
  useLayoutEffect(() => first.current && first.current.focus(), []);
  const save = () =>
    run(async () => {
      const body = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
      onCreated((await api.post(`/${collection}`, body)).data);
    });
  const onKeyDown = (event) => {
    if (event.key === "Enter" && event.target.tagName === "INPUT") {
      event.preventDefault();
      save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };
  return html`<div class="small-form" role="group" aria-label=${title} onKeyDown=${onKeyDown}>
    <p class="small-form-title">${title}</p>
    ${fields.map(([name, label, type, required], i) => {
      const said = fieldMessage(error, name);
      const id = `${collection}-new-${name}`;
      return html`<div class="form-field">
        <label for=${id}>${label}${required ? " (required)" : ""}</label>
        <input id=${id} ref=${i === 0 ? first : undefined} type=${type} value=${values[name] || ""} required=${required}
          aria-invalid=${said ? "true" : undefined} aria-describedby=${said ? `${id}-message` : undefined}
          onInput=${(event) => setValues({ ...values, [name]: event.target.value })} />
        ${said ? html`<p class="error field-error" id=${`${id}-message`}>${said}</p>` : null}
      </div>`;
    })}
    ${error && error.status !== 422 ? html`<p class="error" role="alert">${error.message}</p>` : null}
    <div class="actions">
      <button type="button" onClick=${save}>Create</button>
      <button type="button" class="quiet" onClick=${onCancel}>Cancel</button>
    </div>
  </div>`;
}

export function NewVenue({ text, onCreated, onCancel }) {
  const fields = [
    ["name", "Name", "text", true],
    ["address_line1", "Address", "text"],
    ["postal_code", "Postal code", "text"],
    ["city", "City", "text"],
    ["phone", "Phone", "tel"],
  ];
  return html`<${SmallForm} title="New venue" collection="venues" fields=${fields} start=${{ name: text || "" }}
    onCreated=${onCreated} onCancel=${onCancel} />`;
}

export function NewContact({ text, onCreated, onCancel }) {
  const [first, ...rest] = (text || "").split(" ");
  const fields = [
    ["first_name", "First name", "text", true],
    ["last_name", "Last name", "text"],
    ["email", "E-mail", "email"],
    ["phone", "Phone", "tel"],
    ["company", "Company", "text"],
  ];
  return html`<${SmallForm} title="New contact" collection="contacts" fields=${fields}
    start=${{ first_name: first || "", last_name: rest.join(" ") }} onCreated=${onCreated} onCancel=${onCancel} />`;
}
