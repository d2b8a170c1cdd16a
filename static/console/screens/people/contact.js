// A client's contact (SPEC §12, screen 4): their fields, edited in place with people.edit (others' changes
// followed). One API call.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { Happened, useTold } from "../../happened.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { fullName } from "./index.js";
import { PersonFields } from "./person_fields.js";

const FIELDS = [
  ["First name", "first_name"],
  ["Last name", "last_name"],
  ["Company", "company"],
  ["E-mail", "email", "email"],
  ["Phone", "phone", "tel"],
  ["Notes", "notes", "textarea"],
  ["Language", "language", "select", [["en", "English"], ["de", "German"]]],  // what their mails, documents and page speak
];

export default function Contact({ params }) {
  const { api } = useConsole();
  const told = useTold();
  const path = `/contacts/${encodeURIComponent(params.id)}`;
  const found = useLoad(() => api.get(path), [params.id]);
  useFollow({ subject_collection: "contacts", subject_id: params.id }, () => found.reload(), [params.id]);
  const contact = found.answer && found.answer.data;
  const error = contact ? null : found.error;
  return html`<section class="screen person">
    <header class="screen-header">
      <h1>${contact ? fullName(contact) : error ? "Contact not found" : "Contact"}</h1>
      ${contact && contact.company ? html`<span class="muted">${contact.company}</span>` : null}
    </header>
    ${told ? html`<${Happened} words=${told} />` : null}
    <p class="back"><a href="/people">All people</a></p>
    <${ErrorMessage} error=${error} />
    ${!contact && !error ? html`<${Loading} />` : null}
    ${contact
      ? html`<${PersonFields} fields=${FIELDS} record=${contact} path=${path} onSaved=${(saved) => found.update(() => ({ data: saved }))} />`
      : null}
  </section>`;
}
