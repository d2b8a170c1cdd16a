// Who is signed in: GET /me (its `can` decides what the console shows, SPEC §12).
//
//   can(me, "pay.view")        -> whether to show amounts of pay
//   canViewAny(me)             -> whether any collection can be read (the Records menu)
//   doesOfficeWork(me)         -> whether the office's screens are theirs (else their home is My gigs, SPEC §13)
//   isLinkedToMember(api)      -> a promise: whether a staff member is linked to them (My gigs is theirs then)

import { ApiError, api } from "./api.js";

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

/** GET /me/staff-member answers 404 when no member is linked; any other failure is not an answer. */
export function isLinkedToMember(api) {
  return api.get("/me/staff-member", { fields: "id" }).then(
    () => true,
    (error) => {
      if (error instanceof ApiError && error.status === 404) return false;
      throw error;
    },
  );
}
