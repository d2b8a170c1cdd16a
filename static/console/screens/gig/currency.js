// The currency of the gig page's amounts: a gig product's price and a gig role's pay carry none of their own,
// so they are in the office's (GET /me's office.currency, read once at sign-in).

import { officeCurrency } from "../../me.js";

export function useCurrency() {
  return officeCurrency();
}
