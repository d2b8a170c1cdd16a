// The gig's status and the control that changes it. Moving a gig to a status that is not live (completed,
// cancelled) withdraws its pending invitations (SPEC §5.3): the person confirms that in words first.

import { StatusBadge } from "../../components/index.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";

const NOT_LIVE = ["completed", "cancelled"];
/** The office's statuses in their order, asked once a page load (the agenda's filter offers them too). */
export function useStatuses() {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/gig-statuses", { sort: "position", limit: 100, fields: "id,name,kind,position" }), [], {
    keep: "gig-statuses",
  });
  return { list: found.answer ? found.answer.data : [], error: found.error };
}

function consequence(gig, status) {
  const pending = gig.pending_invitation_count;
  const invitations = pending === 1 ? "Its 1 pending invitation" : `Its ${pending} pending invitations`;
  const withdrawn = pending > 0 ? `${invitations} will be withdrawn and the musicians told.` : "It has no pending invitations.";
  return `Move “${gig.title}” to ${status.name}? ${withdrawn} Roles can no longer be staffed while it is ${status.name.toLowerCase()}.`;
}

function Confirm({ gig, status, onYes, onNo }) {
  return html`<div class="confirm" role="alertdialog" aria-labelledby="status-confirm-words">
    <p id="status-confirm-words">${consequence(gig, status)}</p>
    <button type="button" onClick=${onYes}>Yes, move to ${status.name}</button>
    <button type="button" class="quiet" onClick=${onNo}>No, keep ${gig.gig_status ? gig.gig_status.name : "it"}</button>
  </div>`;
}

export function StatusControl({ gig, editable, reload }) {
  const { api } = useConsole();
  const { list, error: listError } = useStatuses();
  const [asking, setAsking] = useState(null);
  const { error, run } = useWrite();
  const [saved, setSaved] = useState("");
  const move = (status) =>
    run(async () => {
      setAsking(null);
      await api.patch(`/gigs/${encodeURIComponent(gig.id)}`, { gig_status_id: status.id });
      await reload();
      setSaved(`Saved: now ${status.name}.`);
    });
  const choose = (event) => {
    const status = list.find((one) => one.id === event.target.value);
    if (!status || status.id === gig.gig_status_id) return;
    setSaved("");
    if (NOT_LIVE.includes(status.kind)) setAsking(status);
    else move(status);
  };
  return html`<div class="gig-status">
    <${StatusBadge} status=${gig.gig_status} />
    ${editable && list.length > 0
      ? html`<label for="gig-status-choice" class="visually-hidden">Change the status</label>
        <select id="gig-status-choice" value=${asking ? asking.id : gig.gig_status_id || ""} onChange=${choose}>
          ${gig.gig_status_id ? null : html`<option value="">No status</option>`}
          ${list.map((status) => html`<option value=${status.id}>${status.name}</option>`)}
        </select>`
      : null}
    <span class="saved" role="status">${saved}</span>
    ${asking ? html`<${Confirm} gig=${gig} status=${asking} onYes=${() => move(asking)} onNo=${() => setAsking(null)} />` : null}
    <${SaveError} error=${error || (editable ? listError : null)} id="gig-status-error" />
  </div>`;
}
