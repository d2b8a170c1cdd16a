// The gig page's Overview tab: every field of the gig edited in place (a PATCH of the one field that changed),
// the references (venue, type) as searchable pickers, the office's custom fields (SPEC §4.7), then the gig's
// products with their prices and its contacts.

import { InPlace } from "../../components/in_place.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { date } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { Contacts } from "./contacts.js";
import { NewVenue, venueText } from "./new_records.js";
import { Products } from "./products.js";

const CUSTOM_TYPES = { text: "text", number: "number", boolean: "checkbox", date: "date", select: "select" };
/** The gigs' custom fields, asked once a page load. */
function useDefinitions() {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/custom-fields", { "filter[resource]": "gigs", sort: "position", limit: 100 }), [], {
    keep: "gig-custom-fields",
  });
  return { list: found.answer ? found.answer.data : [], error: found.error };
}

function patcher(api, gig, reload) {
  return async (changes) => {
    await api.patch(`/gigs/${encodeURIComponent(gig.id)}`, changes);
    await reload();
  };
}

function Fields({ gig, editable, save }) {
  const field = (name, label, type, extra = {}) =>
    html`<${InPlace} id=${name} label=${label} type=${type} value=${gig[name]} editable=${editable}
      onSave=${(value) => save({ [name]: value })} ...${extra} />`;
  return html`<div class="fields">
    ${field("title", "Title", "text", { wide: true })}
    ${field("gig_date", "Date", "date", { display: date(gig.gig_date) })}
    ${field("venue_id", "Venue", "reference", {
      wide: true,
      display: gig.venue ? venueText(gig.venue) : "",
      record: gig.venue,
      picker: { collection: "venues", text: venueText, optional: true, create: { label: "New venue…", Form: NewVenue } },
    })}
    ${field("gig_type_id", "Type", "reference", {
      display: gig.gig_type ? gig.gig_type.name : "",
      record: gig.gig_type,
      picker: { collection: "gig-types", optional: true },
    })}
    ${field("load_in_time", "Load-in", "time")}
    ${field("start_time", "Start", "time")}
    ${field("end_time", "End", "time")}
    ${field("guest_count", "Guests", "number")}
    <div class="wide">${field("notes", "Notes", "textarea")}</div>
  </div>`;
}

function CustomFields({ gig, editable, save }) {
  const { list, error } = useDefinitions();
  if (error) return html`<${SaveError} error=${error} id="custom-fields-error" />`;
  if (list.length === 0) return null;
  const values = gig.custom_fields || {};
  return html`<div class="fields custom-fields" role="group" aria-label="More about the gig">
    ${list.map(
      (definition) => html`<${InPlace} key=${definition.key} id=${`custom-${definition.key}`}
        field=${`custom_fields.${definition.key}`} label=${definition.label}
        type=${CUSTOM_TYPES[definition.field_type] || "text"} value=${values[definition.key]}
        options=${(definition.options || []).map((option) => [option, option])} editable=${editable}
        onSave=${(value) => save({ custom_fields: { [definition.key]: value } })} />`,
    )}
  </div>`;
}

export default function Overview({ gig, reload }) {
  const { api, me } = useConsole();
  const editable = can(me, "gigs.edit");
  const save = patcher(api, gig, reload);
  return html`<div class="overview">
    <h2 class="visually-hidden">Overview</h2>
    <${Fields} gig=${gig} editable=${editable} save=${save} />
    <${CustomFields} gig=${gig} editable=${editable} save=${save} />
    <${Products} gig=${gig} editable=${editable} />
    ${can(me, "people.view") ? html`<${Contacts} gig=${gig} editable=${editable} canCreate=${can(me, "people.edit")} />` : null}
  </div>`;
}
