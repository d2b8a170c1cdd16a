// The currency of the gig page's amounts: a gig product's price and a gig role's pay carry none of their own,
// so they are in the office's (GET /me's office.currency).

import { useConsole } from "../../context.js";

export function useCurrency() {
  const { me } = useConsole();
  return me.office.currency;
}
