// What the client booked, ticked on the New gig form (SPEC §12.1: a gig for an existing client and venue with one
// invited musician in at most 12 clicks): the catalogue's active products, each added to the new gig with its
// usual ensemble, and the roles those ensembles call for made at once (§5.2 generate-roles), so that the gig
// opens on its staffing ready to invite. Two API calls for the form (products, their ensembles).

import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";

const LIMIT = 50;

/** The active products, each with the ensemble it usually comes with ({product, ensembleId}), or null meanwhile. */
export function useOffered() {
  const { api } = useConsole();
  const found = useLoad(async ({ signal }) => {
    const [products, ensembles] = await Promise.all([
      api.get("/products", { "filter[active]": "true", sort: "position,name", limit: LIMIT }, { signal }),
      api.get("/product-ensembles", { limit: 200 }, { signal }),
    ]);
    const usual = (product) => {
      const offered = ensembles.data.filter((one) => one.product_id === product.id);
      const preferred = offered.find((one) => one.is_default) || offered[0];
      return preferred ? preferred.ensemble_id : null;
    };
    return products.data.map((product) => ({ product, ensembleId: usual(product) }));
  }, []);
  return found.answer;
}

/** The products as boxes to tick; `chosen` a Set of product ids. */
export function Booked({ offered, chosen, onChange }) {
  if (!offered || offered.length === 0) return null;
  const toggle = (id) => {
    const next = new Set(chosen);
    next.has(id) ? next.delete(id) : next.add(id);
    onChange(next);
  };
  return html`<fieldset class="booked">
    <legend>What they booked</legend>
    <p class="help">Each comes with its usual ensemble and its price from the catalogue; the roles to fill are made with it.</p>
    ${offered.map(
      ({ product }) => html`<label key=${product.id} class="check">
        <input type="checkbox" checked=${chosen.has(product.id)} onChange=${() => toggle(product.id)} /> ${product.name}
      </label>`,
    )}
  </fieldset>`;
}

/** Adds the chosen products to `gig` and makes their roles: the number of roles made. */
export async function addBooked(api, me, gig, offered, chosen) {
  const booked = offered.filter(({ product }) => chosen.has(product.id));
  for (const { product, ensembleId } of booked) {
    await api.post("/gig-products", { gig_id: gig.id, product_id: product.id, ensemble_id: ensembleId });
  }
  if (booked.length === 0 || !can(me, "staffing.edit")) return 0;
  return (await api.post(`/gigs/${gig.id}/generate-roles`)).data.length;
}
