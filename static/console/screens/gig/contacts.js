// The gig's contacts (gig-contacts): who they are to the gig, the primary one first; add one (or a new contact
// made from the picker), make one primary, remove one.

import { ReferencePicker } from "../../components/reference_picker.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { recordPath } from "../../paths.js";
import { NewContact, contactText } from "./new_records.js";
import { useRows } from "./rows.js";

function AddContact({ gig, canCreate, onAdded }) {
  const { api } = useConsole();
  const [contact, setContact] = useState(null);
  const [relationship, setRelationship] = useState("");
  const { error, run } = useWrite();
  const add = () =>
    run(async () => {
      await api.post("/gig-contacts", { gig_id: gig.id, contact_id: contact.id, relationship: relationship || null });
      setContact(null);
      setRelationship("");
      onAdded();
    });
  return html`<div class="add-row" role="group" aria-label="Add a contact">
    <${ReferencePicker} id="add-contact" label="Add a contact" collection="contacts" value=${contact} text=${contactText}
      sort="last_name" onChange=${setContact} create=${canCreate ? { label: "New contact…", Form: NewContact } : null} />
    ${contact
      ? html`<div class="form-field"><label for="add-contact-relationship">Relationship</label>
          <input id="add-contact-relationship" value=${relationship} placeholder="Bride, event manager…"
            onInput=${(event) => setRelationship(event.target.value)} /></div>
        <button type="button" onClick=${add}>Add ${contactText(contact)}</button>`
      : null}
    <${SaveError} error=${error} id="add-contact-error" />
  </div>`;
}

function ContactRow({ row, editable, reload }) {
  const { api } = useConsole();
  const contact = row.contact || {};
  const name = contactText(contact) || "A contact";
  const { error, run } = useWrite();
  const change = (request) =>
    run(async () => {
      await request;
      await reload();
    });
  return html`<li class="contact-row">
    <a href=${recordPath("contacts", row.contact_id)}>${name}</a>
    ${row.relationship ? html`<span class="muted"> · ${row.relationship}</span>` : null}
    ${row.is_primary ? html` <span class="badge">primary</span>` : null}
    ${[contact.phone, contact.email].filter(Boolean).length ? html`<span class="contact-ways">${[contact.phone, contact.email].filter(Boolean).join(" · ")}</span>` : null}
    ${editable && !row.is_primary
      ? html`<button type="button" class="quiet" aria-label=${`Make ${name} the primary contact`}
          onClick=${() => change(api.patch(`/gig-contacts/${row.id}`, { is_primary: true }))}>Make primary</button>`
      : null}
    ${editable
      ? html`<button type="button" class="quiet remove" aria-label=${`Remove ${name} from the gig`}
          onClick=${() => change(api.delete(`/gig-contacts/${row.id}`))}>Remove</button>`
      : null}
    <${SaveError} error=${error} id=${`contact-${row.id}-error`} />
  </li>`;
}

export function Contacts({ gig, editable, canCreate }) {
  const { rows, error, reload } = useRows("/gig-contacts", gig.id, { expand: "contact", sort: "-is_primary" });
  return html`<section class="gig-section" aria-labelledby="contacts-title">
    <h2 id="contacts-title">Contacts</h2>
    <${SaveError} error=${error} id="contacts-error" />
    ${rows && rows.length === 0 ? html`<p class="muted">No contacts yet.</p>` : null}
    ${rows && rows.length > 0
      ? html`<ul class="contact-list">${rows.map((row) => html`<${ContactRow} key=${row.id} row=${row} editable=${editable} reload=${reload} />`)}</ul>`
      : null}
    ${editable ? html`<${AddContact} gig=${gig} canCreate=${canCreate} onAdded=${reload} />` : null}
  </section>`;
}
