// A client's contact (SPEC §12, screen 4): their fields, edited in place with people.edit (others' changes
// followed). One API call.

import { ErrorMessage, Loading } from "../components.js";
import { EditableField } from "../components/editable.js";
import { useFollow } from "../follow.js";
import { html, useEffect, useState } from "../lib.js";
import { can } from "../me.js";
import { fullName } from "./people.js";

const FIELDS = [
  ["First name", "first_name", { required: true }],
  ["Last name", "last_name", {}],
  ["Company", "company", {}],
  ["E-mail", "email", { type: "email" }],
  ["Phone", "phone", { type: "tel" }],
  ["Notes", "notes", { multiline: true }],
];

export default function Contact({ params, me, api }) {
  const [contact, setContact] = useState(null);
  const [error, setError] = useState(null);
  const path = `/contacts/${encodeURIComponent(params.id)}`;
  useEffect(() => {
    api.get(path).then((answer) => setContact(answer.data), setError);
  }, [params.id]);
  useFollow({ subject_collection: "contacts", subject_id: params.id }, () => api.get(path).then((answer) => setContact(answer.data)), [params.id]);
  const canEdit = can(me, "people.edit");
  return html`<section class="screen person">
    <header class="screen-header">
      <h1>${contact ? fullName(contact) : error ? "Contact not found" : "Contact"}</h1>
      ${contact && contact.company ? html`<span class="muted">${contact.company}</span>` : null}
    </header>
    <p class="back"><a href="/people">All people</a></p>
    <${ErrorMessage} error=${error} />
    ${!contact && !error ? html`<${Loading} />` : null}
    ${contact
      ? html`<dl class="person-fields">
          ${FIELDS.map(
            ([label, name, options]) => html`<${EditableField} key=${name} label=${label} name=${name} value=${contact[name]}
              canEdit=${canEdit} save=${(value) => api.patch(path, { [name]: value })} onSaved=${setContact} ...${options} />`,
          )}
        </dl>`
      : null}
  </section>`;
}
