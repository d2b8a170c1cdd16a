// The gig page's Equipment tab: the equipment on the gig (each with its type and notes), added by a picker or by
// "Generate equipment" (POST /gigs/{id}/generate-equipment, SPEC §5.4): what it assigned and what is short, in
// words. A clash (in repair, on another gig that night) is said in words with a link to the other gig.

import { InPlace } from "../../components/in_place.js";
import { ReferencePicker } from "../../components/reference_picker.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { useRows } from "./rows.js";

/** Equipment types' names by id, asked once a page load. */
function useTypes() {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/equipment-types", { limit: 200, fields: "id,name" }), [], { keep: "equipment-types" });
  return found.answer ? Object.fromEntries(found.answer.data.map((type) => [type.id, type.name])) : {};
}

function generatedWords({ assigned, shortages }, typeNames) {
  const added = assigned.length === 0 ? "Nothing new assigned" : `${assigned.length} ${assigned.length === 1 ? "item" : "items"} assigned`;
  if (shortages.length === 0) return [`${added}; nothing is short.`];
  return [
    `${added}; short of:`,
    ...shortages.map((short) => `${short.missing} × ${typeNames[short.equipment_type_id] || "equipment of a type no longer listed"}`),
  ];
}

function Generate({ gig, typeNames, onDone }) {
  const { api } = useConsole();
  const [result, setResult] = useState(null);
  const { error, run } = useWrite();
  const generate = () =>
    run(async () => {
      const { data } = await api.post(`/gigs/${encodeURIComponent(gig.id)}/generate-equipment`);
      setResult(data);
      onDone();
    });
  const words = result ? generatedWords(result, typeNames) : [];
  return html`<div class="generate">
    <button type="button" onClick=${generate}>Generate equipment</button>
    <div role="status" class="generated">
      ${words.length > 0 ? html`<p>${words[0]}</p>` : null}
      ${words.length > 1 ? html`<ul class="shortages">${words.slice(1).map((line) => html`<li>${line}</li>`)}</ul>` : null}
    </div>
    <${SaveError} error=${error} id="generate-error" />
  </div>`;
}

function AddEquipment({ gig, onAdded }) {
  const { api } = useConsole();
  const { error, run } = useWrite();
  const add = (equipment) =>
    run(async () => {
      if (!equipment) return;
      await api.post("/gig-equipment", { gig_id: gig.id, equipment_id: equipment.id });
      onAdded();
    });
  return html`<div class="add-row" role="group" aria-label="Add equipment">
    <${ReferencePicker} id="add-equipment" label="Add equipment" collection="equipment" value=${null}
      text=${(item) => [item.name, item.serial_number].filter(Boolean).join(" · ")} onChange=${add} />
    <${SaveError} error=${error} id="add-equipment-error" />
  </div>`;
}

export default function Equipment({ gig }) {
  const { api, me } = useConsole();
  const editable = can(me, "production.edit");
  const typeNames = useTypes();
  const { rows, error, reload } = useRows("/gig-equipment", gig.id, { expand: "equipment" });
  const removing = useWrite();
  const [removingId, setRemovingId] = useState(null); // the row whose removal failed is where its failure is said
  const remove = (row) => {
    setRemovingId(row.id);
    removing.run(async () => {
      await api.delete(`/gig-equipment/${row.id}`);
      reload();
    });
  };
  return html`<div class="equipment">
    <h2>Equipment</h2>
    ${editable ? html`<${Generate} gig=${gig} typeNames=${typeNames} onDone=${reload} />` : null}
    <${SaveError} error=${error} id="equipment-error" />
    ${rows && rows.length === 0 ? html`<p class="muted">No equipment on this gig yet.</p>` : null}
    ${rows && rows.length > 0
      ? html`<ul class="equipment-list">
          ${rows.map((row) => {
            const item = row.equipment || {};
            const name = item.name || "Equipment no longer listed";
            return html`<li key=${row.id}>
              <div class="equipment-what">
                <span class="equipment-name">${name}</span>
                <span class="muted">${[typeNames[item.equipment_type_id], item.serial_number].filter(Boolean).join(" · ")}</span>
              </div>
              <${InPlace} id=${`gig-equipment-${row.id}-notes`} field="notes" label="Notes" type="text" value=${row.notes}
                placeholder="Add notes…"
                editable=${editable} onSave=${(value) => api.patch(`/gig-equipment/${row.id}`, { notes: value }).then(reload)} />
              ${editable ? html`<button type="button" class="quiet remove" aria-label=${`Remove ${name}`} onClick=${() => remove(row)}>Remove</button>` : null}
              <${SaveError} error=${removingId === row.id ? removing.error : null} id=${`gig-equipment-${row.id}-error`} />
            </li>`;
          })}
        </ul>`
      : null}
    ${editable ? html`<${AddEquipment} gig=${gig} onAdded=${reload} />` : null}
  </div>`;
}
