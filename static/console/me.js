// Who is signed in: GET /me (its `can` decides what the console shows, SPEC §12).
//
//   can(me, "pay.view")        -> whether to show amounts of pay
//   canViewAny(me)             -> whether any collection can be read (the Records menu)
//   doesOfficeWork(me)         -> whether the office's screens are theirs (else their home is My gigs, SPEC §13)
//   isLinkedToMember(me)       -> whether a staff member is linked to them (My gigs is theirs then)

import { api } from "./api.js";

export async function loadMe() {
  const me = await api.get("/me");
  return me.data;
}

export function can(me, capability) {
  return Boolean(me && me.can && me.can[capability]);
}

export function canViewAny(me) {
  return Object.entries(me.can || {}).some(([capability, held]) => held && capability.endsWith(".view"));
}

// The musicians' `staff` role reads the catalogue only: that alone is no office work.
const NOT_OFFICE_WORK = ["catalog.view"];

export function doesOfficeWork(me) {
  return Object.entries(me.can || {}).some(([capability, held]) => held && !NOT_OFFICE_WORK.includes(capability));
}

/** GET /me names the linked member: no need to ask /me/staff-member (a 404 when there is none). */
export function isLinkedToMember(me) {
  return Boolean(me.staff_member_id);
}
