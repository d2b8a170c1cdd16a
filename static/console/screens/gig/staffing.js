// The gig page's Staffing tab (SPEC §12 screen 2): the gig's roles grouped by product, each filled (the member,
// and their pay with pay.view only: §4.6) or open (who was invited, and the time left) with "Find someone" (the candidates, invite, allow
// conflicts); the pending invitations with the time left and the office's answers; "Generate roles" (§5.2).

import { Invited, invitationsByRole, RoleRow, useOpenRole } from "../../components/invite.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { conflictWords } from "../../components/staffing_words.js";
import { useConsole } from "../../context.js";
import { money } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { recordPath } from "../../paths.js";
import { PendingInvitations } from "./invitations.js";
import { generatedWords, loadStaffing, payByRole, rolesByProduct } from "./staffing_data.js";

function memberName(member) {
  return `${member.first_name} ${member.last_name}`;
}

function FilledBy({ role, pay, currency }) {
  const { me } = useConsole();
  const amount = pay[role.id];
  return html`<span class="role-member">
    <a href=${recordPath("staff-members", role.staff_member_id)}>${memberName(role.staff_member)}</a>
    ${can(me, "pay.view") && amount !== undefined && amount !== null
      ? html`<span class="role-pay">${money(amount, currency)}</span>`
      : null}
  </span>`;
}

function GigRole({ role, pay, currency, invited, opened, onChange }) {
  return html`<${RoleRow} role=${role} opened=${opened} onChange=${onChange}>
    ${role.status === "filled"
      ? html`<${FilledBy} role=${role} pay=${pay} currency=${currency} />`
      : html`<${Invited} invitations=${invited[role.id]} />`}
  <//>`;
}

function Placed({ placed }) {
  if (!placed) return null;
  const reasons = conflictWords(placed.error);
  return html`<p class="warning" role="status">
    ${memberName(placed.candidate)} is on the role despite a conflict: ${reasons}.
  </p>`;
}

function GenerateRoles({ gig, onMade }) {
  const { api } = useConsole();
  const { error, run } = useWrite();
  const generate = () => run(async () => onMade((await api.post(`/gigs/${gig.id}/generate-roles`)).data));
  return html`<div class="generate-roles">
    <button type="button" onClick=${generate}>Generate roles</button>
    <${ErrorMessage} error=${error} />
  </div>`;
}

export default function Staffing({ gig, reload }) {
  const { api, me } = useConsole();
  // the page refetches the gig when someone changes it (follow.js): its counts moving means the staffing did
  const found = useLoad(() => loadStaffing(api, gig, me), [gig.id, gig.role_count, gig.open_role_count, gig.pending_invitation_count]);
  const { answer: data, error } = found;
  const opened = useOpenRole();
  const [notice, setNotice] = useState(null);
  const [placed, setPlaced] = useState(null);
  const changed = (change = {}) => {
    if (change.placed) {
      setPlaced(change.placed);
      opened.close();
    }
    reload();
  };
  const made = async (created) => {
    const fresh = await loadStaffing(api, gig, me);
    found.update(() => fresh);
    setNotice(generatedWords(created, fresh.roles));
    reload();
  };
  const groups = data ? rolesByProduct(data.roles, data.products) : [];
  const pay = data ? payByRole(data.pay) : {};
  const invited = data ? invitationsByRole(data.invitations) : {};
  const currency = data && data.pay ? data.pay.meta.currency : null;
  const roleNames = data ? Object.fromEntries(data.roles.map((role) => [role.id, role.role ? role.role.name : ""])) : {};
  return html`<section class="gig-staffing" aria-labelledby="staffing-heading">
    <h2 id="staffing-heading">Staffing</h2>
    ${can(me, "staffing.edit") ? html`<${GenerateRoles} gig=${gig} onMade=${made} />` : null}
    ${notice ? html`<p role="status">${notice}</p>` : null}
    <${Placed} placed=${placed} />
    <${ErrorMessage} error=${error} />
    ${!data && !error ? html`<${Loading} />` : null}
    ${data && groups.length === 0 ? html`<p>No roles yet.</p>` : null}
    ${groups.map(
      (group) => html`<section class="role-group" key=${group.key}>
        <h3>${group.name}</h3>
        <ul class="gig-roles">
          ${group.roles.map(
            (role) =>
              html`<${GigRole}
                key=${role.id}
                role=${role}
                pay=${pay}
                currency=${currency}
                invited=${invited}
                opened=${opened}
                onChange=${changed}
              />`,
          )}
        </ul>
      </section>`,
    )}
    ${data ? html`<${PendingInvitations} invitations=${data.invitations} roleNames=${roleNames} onChange=${changed} />` : null}
  </section>`;
}
