// What the list and the month grid both show of a gig: its staffing badges (open roles and pending
// invitations, SPEC §11's counts, each a link to the gig's staffing) and where and when it is.

import { timeRange } from "../../format.js";
import { html } from "../../lib.js";
import { staffingPath } from "../../paths.js";

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** "2 open" and "1 pending", each a link to the gig's staffing; "all filled" when every role is. */
export function Badges({ gig }) {
  const open = gig.open_role_count || 0;
  const pending = gig.pending_invitation_count || 0;
  const staffing = staffingPath(gig.id);
  const cancelled = gig.gig_status && gig.gig_status.kind === "cancelled";
  return html`<span class="badges">
    ${open > 0
      ? html`<a class="badge open-roles" href=${staffing} data-count=${open}
          ><span aria-hidden="true">${open} open</span><span class="visually-hidden">${plural(open, "open role", "open roles")}</span></a
        >`
      : null}
    ${pending > 0
      ? html`<a class="badge pending" href=${staffing} data-count=${pending}
          ><span aria-hidden="true">${pending} pending</span
          ><span class="visually-hidden">${plural(pending, "pending invitation", "pending invitations")}</span></a
        >`
      : null}
    ${open === 0 && pending === 0 && gig.role_count > 0 && !cancelled
      ? html`<span class="badge filled">all filled</span>`
      : null}
  </span>`;
}

/** "Schloss Hof · 14:00–01:00" (the times as the API gives them: the venue's). */
export function placeAndTime(gig) {
  return [gig.venue && gig.venue.name, timeRange(gig.start_time, gig.end_time)].filter(Boolean).join(" · ");
}

/** The same, the venue isolated from the text around it and the times kept on one line. */
export function PlaceAndTime({ gig }) {
  const times = timeRange(gig.start_time, gig.end_time);
  return html`<span class="gig-place"
    >${gig.venue ? html`<bdi>${gig.venue.name}</bdi>` : null}${gig.venue && times ? " · " : null}${times
      ? html`<span class="gig-time">${times}</span>`
      : null}</span
  >`;
}
