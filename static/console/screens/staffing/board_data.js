// The staffing board's data (SPEC §12 screen 3) in at most three calls: the open roles of the coming weeks with
// their gig and role (one call, §11: filtered and sorted through the gig), the pending invitations (who is asked
// for an open role, and those that expire soon), and, for those of gigs beyond the weeks shown, their roles and
// gigs; with no open role, how many gigs the weeks hold instead (to say which is true).

import { invitationsByRole } from "../../components/invite.js";
import { isoDay } from "../../format.js";

const LIMIT = 200;
export const SOON_HOURS = 48;

/** [today, the last day `weeks` weeks on] as "YYYY-MM-DD", in the browser's calendar. */
export function comingDays(weeks, today = new Date()) {
  const last = new Date(today.getFullYear(), today.getMonth(), today.getDate() + weeks * 7);
  return [isoDay(today), isoDay(last)];
}

function openRoles(api, weeks) {
  const [first, last] = comingDays(weeks);
  return api.get("/gig-roles", {
    "filter[status]": "open",
    "filter[gig.gig_date][gte]": first,
    "filter[gig.gig_date][lte]": last,
    sort: "gig.gig_date,gig.start_time,gig_id,role.position",
    expand: "gig,role",
    limit: LIMIT,
  });
}

function pending(api) {
  return api.get("/gig-role-invitations", { "filter[status]": "pending", sort: "expires_at", expand: "staff_member", limit: LIMIT });
}

function gigCount(api, weeks) {
  const [first, last] = comingDays(weeks);
  return api.get("/gigs", { "filter[gig_date][gte]": first, "filter[gig_date][lte]": last, fields: "id", limit: 1 }).then((answer) => answer.meta.total);
}

async function rolesOf(api, ids) {
  if (ids.length === 0) return [];
  const answer = await api.get("/gig-roles", { "filter[id][in]": ids.slice(0, 100).join(","), expand: "gig,role", fields: "id,gig,role" });
  return answer.data;
}

/** {roles, total, invitations, invited, rolesById, gigs}: open roles (with gig and role), invitations expiring soon,
 * the pending invitations by gig role id, and (with no open role) the number of gigs in the weeks. */
export async function loadBoard(api, weeks) {
  const soon = new Date(Date.now() + SOON_HOURS * 3600 * 1000);
  const [roles, waiting] = await Promise.all([openRoles(api, weeks), pending(api)]);
  const invitations = waiting.data.filter((invitation) => new Date(invitation.expires_at) <= soon);
  const rolesById = Object.fromEntries(roles.data.map((role) => [role.id, role]));
  const missing = [...new Set(invitations.map((i) => i.gig_role_id).filter((id) => !rolesById[id]))];
  const [others, gigs] = await Promise.all([rolesOf(api, missing), roles.data.length === 0 ? gigCount(api, weeks) : null]);
  for (const role of others) rolesById[role.id] = role;
  return { roles: roles.data, total: roles.meta.total, invitations, invited: invitationsByRole(waiting.data), rolesById, gigs };
}


/** Open roles grouped by gig, in date order: [{gig, roles}]. */
export function byGig(roles) {
  const groups = new Map();
  for (const role of roles) {
    if (!groups.has(role.gig_id)) groups.set(role.gig_id, { gig: role.gig, roles: [] });
    groups.get(role.gig_id).roles.push(role);
  }
  return [...groups.values()];
}
