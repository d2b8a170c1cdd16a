// Staffing board (SPEC §12, screen 3): the open roles of the coming weeks (?weeks=4, 8 by default, 12 or 26)
// grouped by gig, each with "Find someone" (the candidates and the invite actions of the gig page), and the
// pending invitations that expire within two days.

import { Invited, RoleRow, useOpenRole } from "../../components/invite.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { date, moment, timeLeft, timeRange } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { staffingPath } from "../../paths.js";
import { SOON_HOURS, byGig, loadBoard } from "./board_data.js";

const WEEKS = [4, 8, 12, 26];

function weeksOf(query) {
  const weeks = Number(query.weeks);
  return WEEKS.includes(weeks) ? weeks : 8;
}

function gigLink(gig) {
  return staffingPath(gig.id);
}

function GigGroup({ group, invited, opened, onChange }) {
  const gig = group.gig;
  return html`<li class="board-gig">
    <h2 class="board-gig-title">
      <span class="gig-date">${date(gig.gig_date)}</span>
      <a href=${gigLink(gig)}>${gig.title}</a>
      <span class="gig-place">${timeRange(gig.start_time, gig.end_time)}</span>
    </h2>
    <ul class="gig-roles">
      ${group.roles.map(
        (role) =>
          html`<${RoleRow} key=${role.id} role=${role} where=${role.gig.title} opened=${opened} onChange=${onChange}>
            <${Invited} invitations=${invited[role.id]} />
          <//>`,
      )}
    </ul>
  </li>`;
}

function Expiring({ invitation, role }) {
  const member = invitation.staff_member;
  return html`<li class="invitation">
    <span class="invitation-who">${member.first_name} ${member.last_name}</span>
    <span class="invitation-role">
      ${role ? html`${role.role ? role.role.name : ""} · <a href=${gigLink(role.gig)}>${role.gig.title}</a>` : null}
    </span>
    <span class="invitation-left" title=${moment(invitation.expires_at)}>${timeLeft(invitation.expires_at)}</span>
  </li>`;
}

/** What is true when no role is open: no gig at all, or every role of the gigs filled. */
function emptyWords(gigs, weeks) {
  if (gigs === 0) return `No gigs in the next ${weeks} weeks.`;
  return `Every role of the ${gigs === 1 ? "gig" : `${gigs} gigs`} in the next ${weeks} weeks is filled.`;
}

function WeeksChoice({ weeks }) {
  return html`<nav class="weeks-choice" aria-label="How far ahead">
    ${WEEKS.map(
      (choice) =>
        html`<a href=${`/staffing?weeks=${choice}`} aria-current=${choice === weeks ? "page" : undefined}>${choice} weeks</a>`,
    )}
  </nav>`;
}

/** The board of `weeks` (drawn anew for another number of weeks: the last one's roles are not shown meanwhile). */
function Board({ weeks }) {
  const { api } = useConsole();
  const found = useLoad(() => loadBoard(api, weeks), [weeks]);
  const opened = useOpenRole();
  const { answer: data, error } = found;
  const groups = data ? byGig(data.roles) : [];
  return html`<${ErrorMessage} error=${error} />
    ${!data && !error ? html`<${Loading} />` : null}
    ${data
      ? html`<section aria-labelledby="open-heading">
          <h2 id="open-heading" class="board-heading">Open roles in the next ${weeks} weeks</h2>
          ${groups.length === 0 ? html`<p>${emptyWords(data.gigs, weeks)}</p>` : null}
          <ul class="board-gigs">
            ${groups.map(
              (group) =>
                html`<${GigGroup} key=${group.gig.id} group=${group} invited=${data.invited} opened=${opened} onChange=${found.reload} />`,
            )}
          </ul>
          ${data.total > data.roles.length ? html`<p class="more">${data.roles.length} of ${data.total} open roles shown.</p>` : null}
        </section>
        <section aria-labelledby="expiring-heading">
          <h2 id="expiring-heading" class="board-heading">Invitations expiring within ${SOON_HOURS} h</h2>
          ${data.invitations.length === 0 ? html`<p>None.</p>` : null}
          <ul class="invitations">
            ${data.invitations.map((invitation) => html`<${Expiring} key=${invitation.id} invitation=${invitation} role=${data.rolesById[invitation.gig_role_id]} />`)}
          </ul>
        </section>`
      : null}`;
}

export default function StaffingBoard({ query }) {
  const weeks = weeksOf(query);
  return html`<section class="screen staffing-board">
    <header class="screen-header">
      <h1>Staffing</h1>
      <${WeeksChoice} weeks=${weeks} />
    </header>
    <${Board} key=${weeks} weeks=${weeks} />
  </section>`;
}
