// Inviting someone to an open gig role (SPEC §5.2, §5.3), the one flow of the gig page's staffing tab and the
// staffing board: the role's row with "Find someone", which opens the role's candidates with their availability
// and reasons in words, a checkbox each, "Invite" with an expiry.
// A refused invitation is said in words per member; for a member refused as unavailable, "Allow conflicts"
// warns first, then puts them on the role with the API's ?allow_conflicts=true (the role check still holds).

import { ApiError } from "../api.js";
import { useConsole } from "../context.js";
import { money, moment, timeLeft } from "../format.js";
import { Happened, namesInWords } from "../happened.js";
import { html, useEffect, useRef, useState } from "../lib.js";
import { useLoad, useWrite } from "../load.js";
import { can } from "../me.js";
import { recordPath } from "../paths.js";
import { ErrorMessage, Loading } from "./index.js";
import { candidateReasons, conflictWords } from "./staffing_words.js";

export const EXPIRY_CHOICES = [
  [24, "24 h"],
  [72, "72 h"],
  [168, "1 week"],
];

// The refusals that "Allow conflicts" may override (§5.2): never the role check nor a filled role.
const OVERRIDABLE = ["staff_member_blocked_out", "double_booked"];

function fullName(person) {
  return `${person.first_name} ${person.last_name}`;
}

function inHours(hours) {
  return new Date(Date.now() + hours * 3600 * 1000).toISOString();
}

function Candidate({ candidate, checked, onToggle, currency }) {
  const { me } = useConsole();
  const id = `candidate-${candidate.staff_member_id}`;
  const words = candidateReasons(candidate);
  const showPay = can(me, "pay.view") && candidate.amount_cents !== null;
  return html`<li class=${candidate.available ? "candidate" : "candidate unavailable"}>
    <input type="checkbox" id=${id} checked=${checked} onChange=${() => onToggle(candidate.staff_member_id)} />
    <label for=${id}>
      <span class="candidate-name">${fullName(candidate)}</span>
      ${candidate.is_primary ? html`<span class="tag">main</span>` : null}
    </label>
    <span class="candidate-availability">${candidate.available ? "available" : `unavailable: ${words.join(", ")}`}</span>
    ${showPay ? html`<span class="candidate-pay">${money(candidate.amount_cents, currency)}</span>` : null}
  </li>`;
}

function Refusal({ refusal, gigRole, onPlaced }) {
  const { api } = useConsole();
  const [warned, setWarned] = useState(false);
  const { error, run } = useWrite();
  const overridable = refusal.error.status === 409 && OVERRIDABLE.includes((refusal.error.details || {}).reason);
  const clash = (refusal.error.details || {}).gig_role;
  const putOn = () =>
    run(async () => {
      const body = { staff_member_id: refusal.candidate.staff_member_id };
      await api.patch(`/gig-roles/${gigRole.id}`, body, { query: { allow_conflicts: "true" } });
      onPlaced(refusal);
    });
  return html`<li class="refusal">
    <p>
      <strong>${fullName(refusal.candidate)}</strong>: not invited, ${conflictWords(refusal.error)}.
      ${clash && clash.gig_id ? html` <a href=${recordPath("gigs", clash.gig_id)}>See the other gig</a>.` : null}
    </p>
    ${overridable && !warned
      ? html`<button type="button" class="quiet" onClick=${() => setWarned(true)}>Allow conflicts…</button>`
      : null}
    ${overridable && warned
      ? html`<div class="warning" role="alert">
          <p>
            ${fullName(refusal.candidate)} is ${conflictWords(refusal.error)}. Put them on this role anyway? No
            invitation is sent; they are on the role at once.
          </p>
          <button type="button" onClick=${putOn}>Put ${fullName(refusal.candidate)} on the role despite the conflict</button>
          <button type="button" class="quiet" onClick=${() => setWarned(false)}>Cancel</button>
        </div>`
      : null}
    <${ErrorMessage} error=${error} />
  </li>`;
}

async function inviteEach(api, gigRole, memberIds, hours, candidates) {
  const refusals = [];
  const invited = [];
  for (const memberId of memberIds) {
    const body = { gig_role_id: gigRole.id, staff_member_id: memberId, expires_at: inHours(hours) };
    try {
      await api.post("/gig-role-invitations", body);
      invited.push(candidates.find((c) => c.staff_member_id === memberId).first_name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refusals.push({ candidate: candidates.find((c) => c.staff_member_id === memberId), error });
    }
  }
  return { invited, refusals };
}

/** The candidates of `gigRole` ({id, ...}) with the invite actions; onChange({placed}) after any change. */
function FindSomeone({ gigRole, onChange, label }) {
  const { api, me } = useConsole();
  const found = useLoad(() => api.get(`/gig-roles/${gigRole.id}/candidates`, { limit: 200 }), [gigRole.id]);
  const { error: failure, run } = useWrite();
  const [chosen, setChosen] = useState(new Set());
  const [hours, setHours] = useState(72);
  const [outcome, setOutcome] = useState(null);
  const answer = found.answer;
  const error = failure || found.error;
  const saidId = `invited-${gigRole.id}`;
  // the Invite button goes disabled under the focus: it moves to the line that says who was invited, once shown
  const toSay = useRef(false);
  useEffect(() => {
    const said = toSay.current && document.getElementById(saidId);
    if (!said) return;
    toSay.current = false;
    said.focus();
  });
  const toggle = (memberId) => {
    const next = new Set(chosen);
    next.has(memberId) ? next.delete(memberId) : next.add(memberId);
    setChosen(next);
  };
  const invite = () =>
    run(async () => {
      setOutcome(null);
      const result = await inviteEach(api, gigRole, [...chosen], hours, answer.data);
      setOutcome(result);
      toSay.current = result.invited.length > 0;
      setChosen(new Set());
      found.reload();
      if (result.invited.length > 0) onChange({});
    });
  const placed = (refusal) => onChange({ placed: refusal });
  if (error) return html`<${ErrorMessage} error=${error} />`;
  if (!answer) return html`<${Loading} />`;
  const selectId = `expiry-${gigRole.id}`;
  return html`<div class="find-someone" role="group" aria-label=${label || "Candidates"}>
    ${answer.data.length === 0 ? html`<p>Nobody holds this role yet.</p>` : null}
    <ul class=${can(me, "pay.view") ? "candidates" : "candidates without-pay"}>
      ${answer.data.map(
        (candidate) =>
          html`<${Candidate}
            key=${candidate.staff_member_id}
            candidate=${candidate}
            checked=${chosen.has(candidate.staff_member_id)}
            onToggle=${toggle}
            currency=${answer.meta.currency}
          />`,
      )}
    </ul>
    <div class="invite-bar">
      <label for=${selectId}>Expires in</label>
      <select id=${selectId} value=${hours} onChange=${(event) => setHours(Number(event.target.value))}>
        ${EXPIRY_CHOICES.map(([value, words]) => html`<option value=${value}>${words}</option>`)}
      </select>
      <button type="button" disabled=${chosen.size === 0} onClick=${invite}>
        Invite${chosen.size > 0 ? ` ${chosen.size}` : ""}
      </button>
    </div>
    <${Happened} id=${saidId} words=${outcome && outcome.invited.length > 0 ? `Invited ${namesInWords(outcome.invited)}` : null} />
    ${outcome && outcome.refusals.length > 0
      ? html`<ul class="refusals">
          ${outcome.refusals.map(
            (refusal) => html`<${Refusal} key=${refusal.candidate.staff_member_id} refusal=${refusal} gigRole=${gigRole} onPlaced=${placed} />`,
          )}
        </ul>`
      : null}
  </div>`;
}

/** Which one role's candidates are open (at most one at a time): {isOpen(id), toggle(id), close()}. */
export function useOpenRole() {
  const [openRole, setOpenRole] = useState(null);
  return {
    isOpen: (id) => openRole === id,
    toggle: (id) => setOpenRole(openRole === id ? null : id),
    close: () => setOpenRole(null),
  };
}

/** Pending invitations by their gig role's id: {id: [invitation, ...]}. */
export function invitationsByRole(invitations) {
  const found = {};
  for (const invitation of invitations) (found[invitation.gig_role_id] = found[invitation.gig_role_id] || []).push(invitation);
  return found;
}

/** Who was invited to an open role and the time each has left to answer, on the role's row; "open" when nobody. */
export function Invited({ invitations }) {
  if (!invitations || invitations.length === 0) return html`<span class="role-open">open</span>`;
  return html`<span class="role-invited">invited:
    ${invitations.map((invitation, i) => html`${i > 0 ? ", " : " "}<span class="role-invitee">
      ${fullName(invitation.staff_member)} <span class="invitation-left" title=${moment(invitation.expires_at)}>(${timeLeft(invitation.expires_at)})</span>
    </span>`)}
  </span>`;
}

/** A gig role's row: its name and call time, `children` (who fills it, or "open"), and for an open role with
 * staffing.edit "Find someone", which opens its candidates (`opened`: useOpenRole's). `where` names the gig in the
 * button's name where the row stands outside the gig's page. onChange({placed}) after any invitation. */
export function RoleRow({ role, where, opened, onChange, children }) {
  const { me } = useConsole();
  const name = role.role ? role.role.name : "Role";
  const open = opened.isOpen(role.id);
  const invitable = role.status !== "filled" && can(me, "staffing.edit");
  return html`<li class=${`gig-role ${role.status}`}>
    <div class="gig-role-line">
      <span class="role-name">${name}</span>
      ${role.call_time ? html`<span class="role-call">call ${role.call_time}</span>` : null}
      ${children}
      ${invitable
        ? html`<button type="button" class="quiet" aria-expanded=${open} aria-label=${`Find someone for ${name}${where ? ` at ${where}` : ""}`}
            onClick=${() => opened.toggle(role.id)}>${open ? "Close" : "Find someone"}</button>`
        : null}
    </div>
    ${open ? html`<${FindSomeone} gigRole=${role} onChange=${onChange} label=${`Candidates for ${name}`} />` : null}
  </li>`;
}
