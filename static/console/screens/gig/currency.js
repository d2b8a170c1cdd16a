// The currency the band's amounts are in: a gig product's price and a gig role's pay carry none of their own,
// the catalog's prices do (a band prices in one currency), so it is read from one of them, once per page load.

import { api } from "../../api.js";
import { useEffect, useState } from "../../lib.js";

let currency = null;

export function useCurrency() {
  const [known, setKnown] = useState(currency || "EUR");
  useEffect(() => {
    if (currency) return;
    api.get("/prices", { limit: 1, fields: "currency" }).then(({ data }) => {
      currency = (data[0] && data[0].currency) || "EUR";
      setKnown(currency);
    }, () => {});
  }, []);
  return known;
}
