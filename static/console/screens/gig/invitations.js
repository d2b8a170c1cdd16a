// The gig's pending invitations on its staffing tab (SPEC §12 screen 2): who is asked for which role, the time
// left to answer, and the office's actions: withdraw, or accept or decline on the member's behalf (§5.3).

import { ErrorMessage } from "../../components/index.js";
import { conflictWords } from "../../components/staffing_words.js";
import { useConsole } from "../../context.js";
import { timeLeft } from "../../format.js";
import { html } from "../../lib.js";
import { useWrite } from "../../load.js";
import { can } from "../../me.js";

const ACTIONS = [
  ["accept", "Accept", "Accept for"],
  ["decline", "Decline", "Decline for"],
  ["withdraw", "Withdraw", "Withdraw the invitation of"],
];

function PendingInvitation({ invitation, roleName, onChange }) {
  const { api, me } = useConsole();
  const { error, run } = useWrite();
  const name = `${invitation.staff_member.first_name} ${invitation.staff_member.last_name}`;
  const act = (action) =>
    run(async () => {
      await api.post(`/gig-role-invitations/${invitation.id}/${action}`);
      onChange();
    });
  return html`<li class="invitation">
    <span class="invitation-who">${name}</span>
    <span class="invitation-role">${roleName}</span>
    <span class="invitation-left">${timeLeft(invitation.expires_at)}</span>
    ${can(me, "staffing.edit")
      ? html`<span class="invitation-actions">
          ${ACTIONS.map(
            ([action, words, spoken]) =>
              html`<button type="button" class="quiet" aria-label=${`${spoken} ${name}`} onClick=${() => act(action)}>${words}</button>`,
          )}
        </span>`
      : null}
    ${error ? html`<p class="error" role="alert">${name}: ${conflictWords(error)}.</p>` : null}
  </li>`;
}

/** The pending invitations (expanded with staff_member), each role named from `roleNames` (gig role id -> name). */
export function PendingInvitations({ invitations, roleNames, onChange, error }) {
  return html`<section class="pending-invitations" aria-labelledby="pending-heading">
    <h3 id="pending-heading">Pending invitations</h3>
    <${ErrorMessage} error=${error} />
    ${invitations.length === 0
      ? html`<p class="quiet-text">No invitation is waiting for an answer.</p>`
      : html`<ul class="invitations">
          ${invitations.map(
            (invitation) =>
              html`<${PendingInvitation}
                key=${invitation.id}
                invitation=${invitation}
                roleName=${roleNames[invitation.gig_role_id] || ""}
                onChange=${onChange}
              />`,
          )}
        </ul>`}
  </section>`;
}
