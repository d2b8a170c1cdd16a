// A person's own fields (a staff member, a contact) as a list of fields edited in place with people.edit.

import { InPlace } from "../../components/in_place.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { can } from "../../me.js";

/** `fields`: [label, name, type, options of a select ([value, words])]; each saved by PATCH `path`, the record's new
 * state given to onSaved. */
export function PersonFields({ fields, record, path, onSaved }) {
  const { api, me } = useConsole();
  const editable = can(me, "people.edit");
  const save = (name) => (value) => api.patch(path, { [name]: value }).then((answer) => onSaved(answer.data));
  return html`<div class="person-fields">
    ${fields.map(
      ([label, name, type, options]) => html`<${InPlace} key=${name} id=${`field-${name}`} field=${name} label=${label} type=${type || "text"}
        value=${record[name]} options=${options} display=${options ? shown(options, record[name]) : undefined}
        editable=${editable} onSave=${save(name)} />`,
    )}
  </div>`;
}

function shown(options, value) {
  const option = options.find(([known]) => known === value);
  return option ? option[1] : value;
}
