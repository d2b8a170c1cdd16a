// A staff member's blockouts (days they cannot play), loaded when the section is opened: the list by date, and
// with people.edit a day or a range added (the end left empty means the one day) and a blockout removed.

import { ApiError } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { date } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useOnOpen, useWrite } from "../../load.js";
import { Section } from "./staff_member_more.js";

function days(blockout) {
  if (blockout.start_date === blockout.end_date) return date(blockout.start_date);
  return `${date(blockout.start_date)} – ${date(blockout.end_date)}`;
}

function FieldProblem({ error, name }) {
  const said = error instanceof ApiError && error.details && error.details[name];
  return said ? html`<p class="field-problem error" id=${`blockout-${name}-problem`}>${String(said)}</p>` : null;
}

function AddBlockout({ member, onAdded }) {
  const { api } = useConsole();
  const [form, setForm] = useState({ start_date: "", end_date: "", reason: "" });
  const { error, run } = useWrite();
  const set = (name) => (event) => setForm({ ...form, [name]: event.target.value });
  function submit(event) {
    event.preventDefault();
    const body = {
      staff_member_id: member.id,
      start_date: form.start_date,
      end_date: form.end_date || form.start_date,
      reason: form.reason.trim() || null,
    };
    return run(async () => {
      await api.post("/staff-member-blockouts", body);
      setForm({ start_date: "", end_date: "", reason: "" });
      onAdded();
    });
  }
  const invalid = (name) => (error && error.details && error.details[name] ? "true" : undefined);
  const general = error && !(error.details && ["start_date", "end_date", "reason"].some((name) => error.details[name]));
  return html`<form class="add-blockout" onSubmit=${submit} aria-labelledby="add-blockout-heading">
    <h3 id="add-blockout-heading">Block out days</h3>
    <div class="blockout-row">
      <label>From <input type="date" required value=${form.start_date} onInput=${set("start_date")} aria-invalid=${invalid("start_date")} /></label>
      <label>To (empty: one day) <input type="date" value=${form.end_date} min=${form.start_date || undefined} onInput=${set("end_date")} aria-invalid=${invalid("end_date")} /></label>
      <label>Reason <input type="text" maxlength="200" value=${form.reason} onInput=${set("reason")} aria-invalid=${invalid("reason")} /></label>
      <button type="submit">Add</button>
    </div>
    <${FieldProblem} error=${error} name="start_date" />
    <${FieldProblem} error=${error} name="end_date" />
    <${FieldProblem} error=${error} name="reason" />
    ${general ? html`<${ErrorMessage} error=${error} />` : null}
  </form>`;
}

export function Blockouts({ member, canEdit }) {
  const { api } = useConsole();
  const list = useOnOpen(() =>
    api.get("/staff-member-blockouts", { "filter[staff_member_id]": member.id, limit: 200 }),
  );
  const { error: problem, run } = useWrite();
  function remove(blockout) {
    return run(async () => {
      await api.delete(`/staff-member-blockouts/${encodeURIComponent(blockout.id)}`);
      list.reload();
    });
  }
  const rows = list.answer ? list.answer.data : [];
  return html`<${Section} title="Blockouts" id="blockouts" onToggle=${list.onToggle}>
    <${ErrorMessage} error=${list.error || problem} />
    ${list.opened && !list.answer && !list.error ? html`<${Loading} />` : null}
    ${list.answer && rows.length === 0 ? html`<p>No days blocked out.</p>` : null}
    ${rows.length > 0
      ? html`<ul class="blockouts" aria-label="Blocked out">
          ${rows.map(
            (blockout) => html`<li key=${blockout.id}>
              <span class="blockout-days">${days(blockout)}</span>
              <span class="muted">${blockout.reason || ""}</span>
              ${canEdit
                ? html`<button type="button" class="quiet" aria-label=${`Remove the blockout of ${days(blockout)}`} onClick=${() => remove(blockout)}>Remove</button>`
                : null}
            </li>`,
          )}
        </ul>`
      : null}
    ${list.answer && canEdit ? html`<${AddBlockout} member=${member} onAdded=${list.reload} />` : null}
  <//>`;
}
