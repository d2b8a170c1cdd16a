// The agenda's filters: the office's own statuses by their names, gig type, a search and "open roles only", each a change of the URL (so back
// restores the one before). The gig types are asked for once a session, and only of a user who may read them.

import { useConsole } from "../../context.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { navigate } from "../../router.js";
import { useStatuses } from "../gig/status.js";
import { agendaUrl } from "./query.js";

const NONE = [];

/** The office's gig types, asked once a page load; none without catalog.view (or when asking fails: the filter is
 * only missing its choices, the agenda itself still works). */
function useGigTypes() {
  const { api, me } = useConsole();
  const allowed = can(me, "catalog.view");
  const found = useLoad(() => (allowed ? api.get("/gig-types", { fields: "id,name", sort: "name", limit: 200 }) : Promise.resolve(null)), [], {
    keep: allowed ? "gig-types" : undefined,
  });
  return (found.answer && found.answer.data) || NONE;
}

function change(agenda, changes) {
  navigate(agendaUrl(agenda, changes));
}

function Choice({ label, value, options, onChange }) {
  return html`<label class="filter">
    <span>${label}</span>
    <select value=${value} onChange=${(event) => onChange(event.target.value)}>
      ${options.map(([key, name]) => html`<option key=${key} value=${key}>${name}</option>`)}
    </select>
  </label>`;
}

function Search({ agenda }) {
  const [text, setText] = useState(agenda.q);
  useEffect(() => setText(agenda.q), [agenda.q]);
  const submit = (event) => {
    event.preventDefault();
    if (text.trim() !== agenda.q) change(agenda, { q: text.trim() });
  };
  return html`<form class="filter filter-search" role="search" onSubmit=${submit}>
    <label for="agenda-q">Find</label>
    <input id="agenda-q" type="search" value=${text} maxlength="200" placeholder="Title, couple, venue…"
      onInput=${(event) => setText(event.target.value)} onChange=${submit} />
  </form>`;
}

export function Filters({ agenda }) {
  const types = useGigTypes();
  const statuses = useStatuses().list;
  return html`<div class="agenda-filters">
    <${Choice} label="Status" value=${agenda.status} onChange=${(status) => change(agenda, { status, kind: "" })}
      options=${[["", "Any status"], ...statuses.map((status) => [status.id, status.name])]} />
    ${types.length > 0 || agenda.type
      ? html`<${Choice} label="Type" value=${agenda.type} onChange=${(type) => change(agenda, { type })}
          options=${[["", "Any type"], ...types.map((type) => [type.id, type.name])]} />`
      : null}
    <${Search} agenda=${agenda} />
    <label class="filter filter-check">
      <input type="checkbox" checked=${agenda.open} onChange=${(event) => change(agenda, { open: event.target.checked })} />
      Open roles only
    </label>
  </div>`;
}
