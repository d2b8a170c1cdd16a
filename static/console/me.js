// Who is signed in: GET /me (its `can` decides what the console shows, SPEC §12) and whether a staff member
// is linked to them (GET /me/staff-member answers 200, else 404): then "My gigs" is theirs.
//
//   can(me, "pay.view")        -> whether to show amounts of pay
//   canViewAny(me)             -> whether any collection can be read (the Records menu)
//   me.staffMemberId           -> the linked staff member's id, or null
//   officeCurrency()           -> the currency of amounts that carry none of their own (GET /me's office)

import { ApiError, api } from "./api.js";

export async function loadMe() {
  const [me, member] = await Promise.all([
    api.get("/me"),
    api.get("/me/staff-member", { fields: "id" }).catch((error) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
  ]);
  office = me.data.office;
  return { ...me.data, staffMemberId: member ? member.data.id : null };
}

let office = { currency: "EUR" }; // until /me answers: the console renders nothing before it does

export function officeCurrency() {
  return office.currency;
}

export function can(me, capability) {
  return Boolean(me && me.can && me.can[capability]);
}

export function canViewAny(me) {
  return Object.entries(me.can || {}).some(([capability, held]) => held && capability.endsWith(".view"));
}
