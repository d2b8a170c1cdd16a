// A musician's own blockouts (SPEC §10, §13; /my/blockouts): the days they cannot play from today on, by date,
// each removed after a confirmation in words; "Add a day" and "Add a range" open a form (native date inputs; a
// refusal is said at its field, or in words with a link to the gig they play then, and what was typed stays).
// Past ones are folded away (loaded when opened, newest first). While the app shows its offline copy nothing here
// writes (offline.js).

import { ApiError } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { date, isoDay, localDate } from "../../format.js";
import { html, useEffect, useRef, useState } from "../../lib.js";
import { useLoad, useOnOpen, useWrite } from "../../load.js";
import { useOffline } from "../../offline.js";
import { myGigPath } from "../../paths.js";

const FIELDS = ["start_date", "end_date", "reason"];
const PAST = 50; // past blockouts shown, the newest


/** "Sat, 28 Nov 2026", or "Sun, 20 Dec 2026 – Sat, 26 Dec 2026" for a range. */
export function days(blockout) {
  const { start_date: first, end_date: last } = blockout;
  return first === last ? date(first) : `${date(first)} – ${date(last)}`;
}

/** "7 days" of a range (both ends counted), null for one day. */
function length(blockout) {
  const count = Math.round((localDate(blockout.end_date) - localDate(blockout.start_date)) / 86400000) + 1;
  return count > 1 ? `${count} days` : null;
}

// The API names the fields as its body does; the form says them as the musician reads them.
const FIELD_WORDS = [
  [/\bstart_date\b/g, "the first day"],
  [/\bend_date\b/g, "the last day"],
];

function fieldProblem(error, name) {
  const said = error instanceof ApiError && error.status === 422 && error.details && error.details[name];
  return said ? FIELD_WORDS.reduce((text, [field, words]) => text.replace(field, words), String(said)) : null;
}

/** A date or text input with its label, and what a 422 said about it under it. */
function Field({ id, label, type = "date", value, onInput, problem, inputRef, ...rest }) {
  return html`<div class="my-field">
    <label for=${id}>${label}</label>
    <input id=${id} type=${type} value=${value} onInput=${onInput} ref=${inputRef}
      aria-invalid=${problem ? "true" : null} aria-describedby=${problem ? `${id}-problem` : null} ...${rest} />
    ${problem ? html`<p class="field-problem error" id=${`${id}-problem`}>${problem}</p>` : null}
  </div>`;
}

/** A refusal that is not about one field: a 409 names the gig they play in those days, linked. */
function Refusal({ error }) {
  if (!error || FIELDS.some((name) => fieldProblem(error, name))) return null;
  const gigRole = error.status === 409 && error.details && error.details.gig_role;
  if (!gigRole || !gigRole.gig_id) return html`<${ErrorMessage} error=${error} />`;
  const words = [date(gigRole.gig_date), gigRole.gig_title].filter(Boolean).join(" · ");
  return html`<p class="error" role="alert">Not saved: ${error.message} See <a href=${myGigPath(gigRole.gig_id)}>${words}</a>.</p>`;
}

/** The form of "Add a day" (`range` false: one date) or "Add a range" (From and To). */
function AddBlockout({ range, onAdded, onCancel }) {
  const { api } = useConsole();
  const [form, setForm] = useState({ start_date: "", end_date: "", reason: "" });
  const { error, busy: saving, run } = useWrite();
  const first = useRef(null);
  const formRef = useRef(null);
  useEffect(() => first.current && first.current.focus(), []);
  useEffect(() => {
    const invalid = error && formRef.current.querySelector('[aria-invalid="true"]');
    if (invalid) invalid.focus(); // to the field that says why
  }, [error]);
  const set = (name) => (event) => setForm({ ...form, [name]: event.target.value });
  function submit(event) {
    event.preventDefault();
    const end = range ? form.end_date : form.start_date;
    return run(async () => {
      const made = await api.post("/me/blockouts", { ...form, end_date: end, reason: form.reason.trim() || null });
      onAdded(made.data);
    });
  }
  const kind = range ? "range" : "day";
  // One day sends its date as both ends: what is said about either is said at the one field.
  const startProblem = fieldProblem(error, "start_date") || (range ? null : fieldProblem(error, "end_date"));
  return html`<form class="my-add-blockout" ref=${formRef} onSubmit=${submit} aria-labelledby=${`add-${kind}-heading`}>
    <h2 id=${`add-${kind}-heading`}>${range ? "Add a range of days" : "Add a day"}</h2>
    <div class="my-fields">
      <${Field} id=${`blockout-${kind}-start`} label=${range ? "From" : "Day"} value=${form.start_date} required
        onInput=${set("start_date")} problem=${startProblem} inputRef=${first} />
      ${range
        ? html`<${Field} id="blockout-range-end" label="To (the last day you cannot play)" value=${form.end_date} required
            onInput=${set("end_date")} problem=${fieldProblem(error, "end_date")} />`
        : null}
      <${Field} id=${`blockout-${kind}-reason`} label="Reason (optional, the office sees it)" type="text" maxlength="200"
        value=${form.reason} onInput=${set("reason")} problem=${fieldProblem(error, "reason")} />
    </div>
    <${Refusal} error=${error} />
    <p class="actions">
      <button type="submit" disabled=${saving}>${range ? "Add these days" : "Add this day"}</button>
      <button type="button" class="quiet" onClick=${onCancel}>Cancel</button>
    </p>
  </form>`;
}

/** A blockout's dates (a range broken at its dash, with its length) and its reason. */
function What({ blockout }) {
  const { start_date: first, end_date: last } = blockout;
  return html`<div class="my-blockout-what">
    <span class="blockout-days">${first === last
      ? date(first)
      : html`<span class="nowrap">${date(first)}</span> – <span class="nowrap">${date(last)}</span>`}</span>
    ${length(blockout) ? html`<span class="muted">${length(blockout)}</span>` : null}
    ${blockout.reason ? html`<span class="muted blockout-reason">${blockout.reason}</span>` : null}
  </div>`;
}

/** One blockout, with Remove; Remove asks first, in words. */
function Blockout({ blockout, canWrite, onRemove }) {
  const [asking, setAsking] = useState(false);
  const keep = useRef(null);
  useEffect(() => asking && keep.current && keep.current.focus(), [asking]);
  const when = days(blockout);
  return html`<li class="my-blockout">
    <${What} blockout=${blockout} />
    ${canWrite && !asking
      ? html`<button type="button" class="quiet" aria-label=${`Remove the blockout of ${when}`} onClick=${() => setAsking(true)}>Remove</button>`
      : null}
    ${canWrite && asking
      ? html`<div class="my-confirm" role="group" aria-label="Confirm removal">
          <p>Remove the blockout of ${when}? The office may then book you on ${blockout.start_date === blockout.end_date ? "that day" : "those days"}.</p>
          <p class="actions">
            <button type="button" class="danger" onClick=${() => onRemove(blockout)}>Yes, remove it</button>
            <button type="button" class="quiet" ref=${keep} onClick=${() => setAsking(false)}>Keep it</button>
          </p>
        </div>`
      : null}
  </li>`;
}

/** The blockouts that ended before today, folded away and loaded when opened, newest first: read only. */
function Past() {
  const { api } = useConsole();
  const past = useOnOpen(() => api.get("/me/blockouts", { "filter[end_date][lt]": isoDay(), sort: "-start_date", limit: PAST }));
  const rows = past.answer ? past.answer.data : [];
  return html`<details class="my-past" onToggle=${past.onToggle}>
    <summary>Past blockouts</summary>
    <${ErrorMessage} error=${past.error} />
    ${past.opened && !past.answer && !past.error ? html`<${Loading} />` : null}
    ${past.answer && rows.length === 0 ? html`<p class="my-empty">None.</p>` : null}
    ${rows.length > 0
      ? html`<ul class="my-blockout-list" aria-label="Your past blockouts">
          ${rows.map((blockout) => html`<li key=${blockout.id} class="my-blockout"><${What} blockout=${blockout} /></li>`)}
        </ul>`
      : null}
    ${past.answer && past.answer.meta.total > rows.length
      ? html`<p class="muted">The ${PAST} most recent of ${past.answer.meta.total}.</p>`
      : null}
  </details>`;
}

export default function MyBlockouts() {
  const { api } = useConsole();
  const { offline } = useOffline();
  const list = useLoad(() => api.get("/me/blockouts", { "filter[end_date][gte]": isoDay(), limit: 200 }), []);
  const [adding, setAdding] = useState(null); // "day", "range" or null
  const [said, setSaid] = useState({}); // {text} of the last change, or {error} of a removal refused
  const status = useRef(null);
  const openers = useRef({});
  // The form or the Remove button that had the focus is gone: it goes to what happened.
  useEffect(() => said.text && status.current && status.current.focus(), [said]);
  function added(blockout) {
    setAdding(null);
    setSaid({ text: `Added: ${days(blockout)}.` });
    list.reload();
  }
  function cancel() {
    const opener = openers.current[adding];
    setAdding(null);
    if (opener) opener.focus();
  }
  async function remove(blockout) {
    try {
      await api.delete(`/me/blockouts/${encodeURIComponent(blockout.id)}`);
      setSaid({ text: `Removed: ${days(blockout)}.` });
    } catch (error) {
      setSaid({ error });
    }
    list.reload();
  }
  const rows = list.answer ? list.answer.data : [];
  const open = (kind) => html`<button type="button" aria-expanded=${adding === kind ? "true" : "false"}
    ref=${(button) => (openers.current[kind] = button)}
    onClick=${() => setAdding(adding === kind ? null : kind)}>${kind === "day" ? "Add a day" : "Add a range"}</button>`;
  return html`<section class="screen my-blockouts">
    <header class="screen-header">
      <h1>My blockouts</h1>
      <p class="muted">Days you cannot play: the office does not book you on them.</p>
    </header>
    ${offline
      ? html`<p class="muted">You are offline: blockouts are added and removed when you are back online.</p>`
      : html`<p class="actions my-add-buttons">${open("day")}${open("range")}</p>`}
    ${!offline && adding
      ? html`<${AddBlockout} key=${adding} range=${adding === "range"} onAdded=${added} onCancel=${cancel} />`
      : null}
    <p class="my-said" role="status" tabindex="-1" ref=${status}>${said.text || ""}</p>
    <${ErrorMessage} error=${list.error || said.error} />
    ${!list.answer && !list.error ? html`<${Loading} />` : null}
    ${list.answer && rows.length === 0 ? html`<p class="my-empty">No days blocked out from today on.</p>` : null}
    ${rows.length > 0
      ? html`<ul class="my-blockout-list" aria-label="Your blockouts from today on">
          ${rows.map((blockout) => html`<${Blockout} key=${blockout.id} blockout=${blockout} canWrite=${!offline} onRemove=${remove} />`)}
        </ul>`
      : null}
    <${Past} />
  </section>`;
}
