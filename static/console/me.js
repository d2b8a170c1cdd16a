// Who is signed in: GET /me (its `can` decides what the console shows, SPEC §12).
//
//   can(me, "pay.view")        -> whether to show amounts of pay
//   canViewAny(me)             -> whether any collection can be read (the Records menu)
//   officeCurrency()           -> the currency of amounts that carry none of their own (GET /me's office)

import { api } from "./api.js";

export async function loadMe() {
  const me = await api.get("/me");
  office = me.data.office;
  return me.data;
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
