// New gig (SPEC §12 journey 2): the gig's date and title, its status, type, venue and client, its times, what they
// booked (booked.js); the venue and the client can be made on the spot from their pickers ("New venue…", "New
// contact…"). Created, the gig's page opens, at its staffing when roles were made, saying so. A 422 keeps what was typed and says why at the field. ?date=2026-12-05 fills the date.

import { ErrorMessage } from "../../components/index.js";
import { ReferencePicker } from "../../components/reference_picker.js";
import { fieldMessage, useFocusOnInvalid } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { tell } from "../../happened.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { can } from "../../me.js";
import { recordPath, staffingPath } from "../../paths.js";
import { navigate } from "../../router.js";
import { Booked, addBooked, useOffered } from "./booked.js";
import { NewContact, NewVenue, contactText, venueText } from "./new_records.js";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIMES = [["load_in_time", "Load-in"], ["start_time", "Start"], ["end_time", "End"]];

function Field({ id, label, error, field, children }) {
  const said = fieldMessage(error, field);
  return html`<div class="form-field">
    <label for=${id}>${label}</label>
    ${children}
    ${said ? html`<p class="error field-error" id=${`${id}-message`} role="alert">${said}</p>` : null}
  </div>`;
}

function body(values, picked) {
  const gig = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
  if (gig.guest_count !== undefined) gig.guest_count = Number(gig.guest_count);
  if (picked.venue) gig.venue_id = picked.venue.id;
  if (picked.type) gig.gig_type_id = picked.type.id;
  return gig;
}

export default function NewGig({ query }) {
  const { api, me } = useConsole();
  const [values, setValues] = useState({ gig_date: DATE_RE.test(query.date || "") ? query.date : "", title: "", guest_count: "" });
  const [picked, setPicked] = useState({ venue: null, type: null, client: null });
  const { error, busy, run } = useWrite();
  const form = useFocusOnInvalid(error);
  const offered = useOffered();
  const [chosen, setChosen] = useState(new Set());
  if (!can(me, "gigs.edit")) return html`<section class="screen"><h1>New gig</h1><p>You may not add gigs.</p></section>`;
  const set = (name) => (event) => setValues({ ...values, [name]: event.target.value });
  const pick = (name) => (record) => setPicked({ ...picked, [name]: record });
  const input = (name, type = "text", extra = {}) => html`<input id=${`new-gig-${name}`} name=${name} type=${type}
    value=${values[name] || ""} onInput=${set(name)} aria-invalid=${fieldMessage(error, name) ? "true" : undefined}
    aria-describedby=${fieldMessage(error, name) ? `new-gig-${name}-message` : undefined} ...${extra} />`;
  const submit = (event) => {
    event.preventDefault();
    if (busy) return;
    run(async () => {
      const gig = (await api.post("/gigs", body(values, picked))).data;
      if (picked.client) {
        await api.post("/gig-contacts", { gig_id: gig.id, contact_id: picked.client.id, relationship: "Client", is_primary: true });
      }
      // the gig is made: a refusal of what they booked is said on its page, not by a second gig made on retry
      const booked = await addBooked(api, me, gig, offered || [], chosen).then(
        (roles) => ({ roles, words: roles > 0 ? `Created, with ${roles} ${roles === 1 ? "role" : "roles"} to fill` : "Created" }),
        (failure) => ({ roles: 0, words: `Created, but not all they booked was added: ${failure.message}` }),
      );
      tell(booked.words);
      navigate(booked.roles > 0 ? staffingPath(gig.id) : recordPath("gigs", gig.id));
    });
  };
  return html`<section class="screen new-gig">
    <header class="screen-header"><h1>New gig</h1><a href="/agenda">Back to the agenda</a></header>
    <form class="gig-form" ref=${form} onSubmit=${submit} novalidate>
      <${Field} id="new-gig-gig_date" label="Date (required)" error=${error} field="gig_date">${input("gig_date", "date", { required: true })}<//>
      <${Field} id="new-gig-title" label="Title (required)" error=${error} field="title">${input("title", "text", { required: true, maxLength: 200 })}<//>
      <div class="form-field">
        <${ReferencePicker} id="new-gig-venue" label="Venue" collection="venues" value=${picked.venue} text=${venueText}
          optional=${true} onChange=${pick("venue")} create=${{ label: "New venue…", Form: NewVenue }} />
        ${fieldMessage(error, "venue_id") ? html`<p class="error field-error" role="alert">${fieldMessage(error, "venue_id")}</p>` : null}
      </div>
      ${can(me, "people.view")
        ? html`<div class="form-field">
            <${ReferencePicker} id="new-gig-client" label="Client" collection="contacts" value=${picked.client} text=${contactText}
              sort="last_name" optional=${true} onChange=${pick("client")}
              create=${can(me, "people.edit") ? { label: "New contact…", Form: NewContact } : null} />
          </div>`
        : null}
      <div class="form-field">
        <${ReferencePicker} id="new-gig-type" label="Type" collection="gig-types" value=${picked.type} optional=${true} onChange=${pick("type")} />
      </div>
      <div class="form-row">
        ${TIMES.map(([name, label]) => html`<${Field} id=${`new-gig-${name}`} label=${label} error=${error} field=${name}>${input(name, "time")}<//>`)}
        <${Field} id="new-gig-guest_count" label="Guests" error=${error} field="guest_count">${input("guest_count", "number", { min: 0 })}<//>
      </div>
      <${Booked} offered=${offered} chosen=${chosen} onChange=${setChosen} />
      ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
      ${error && error.status === 422 ? html`<p class="error" role="alert">Not created yet: see the fields marked above.</p>` : null}
      <div class="actions"><button type="submit" disabled=${busy}>Create the gig</button></div>
    </form>
  </section>`;
}
