// The gig's products (SPEC §12 gig page): each with its ensemble, times and price (money with its currency);
// adding one picks the product, then one of the ensembles offered for it (the default chosen), and the API
// fills the price from the catalog (§5.1). Price, times and ensemble are edited in place.

import { InPlace } from "../../components/in_place.js";
import { ReferencePicker } from "../../components/reference_picker.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { money } from "../../format.js";
import { Happened } from "../../happened.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { useCurrency } from "./currency.js";
import { useRows } from "./rows.js";

const NONE = [];

function useOffered(productId) {
  const { api } = useConsole();
  const found = useLoad(
    () => (productId ? api.get("/product-ensembles", { "filter[product_id]": productId, expand: "ensemble", limit: 50 }) : Promise.resolve(null)),
    [productId],
  );
  return (found.answer && !found.loading && found.answer.data) || NONE;
}

function AddProduct({ gig, onAdded }) {
  const { api } = useConsole();
  const [product, setProduct] = useState(null);
  const [ensembleId, setEnsembleId] = useState("");
  const { error, run } = useWrite();
  const [added, setAdded] = useState(null);
  const offered = useOffered(product && product.id);
  useEffect(() => {
    const preferred = offered.find((one) => one.is_default) || offered[0];
    setEnsembleId(preferred ? preferred.ensemble_id : "");
  }, [offered]);
  const add = () =>
    run(async () => {
      await api.post("/gig-products", { gig_id: gig.id, product_id: product.id, ensemble_id: ensembleId || null });
      setAdded(`Added ${product.name}`);
      setProduct(null);
      onAdded();
      // the button that had the focus is gone: it goes to what happened, one Tab before the next product
      document.getElementById("product-added").focus();
    });
  return html`<div class="add-row" role="group" aria-label="Add a product">
    <${Happened} words=${added} id="product-added" />
    <${ReferencePicker} id="add-product" label="Add a product" collection="products" value=${product}
      query=${{ "filter[active]": "true" }} sort="position" onChange=${setProduct} />
    ${product && offered.length > 0
      ? html`<div class="form-field"><label for="add-product-ensemble">Ensemble</label>
          <select id="add-product-ensemble" value=${ensembleId} onChange=${(event) => setEnsembleId(event.target.value)}>
            ${offered.map((one) => html`<option value=${one.ensemble_id}>${one.ensemble.name}${one.is_default ? " (usual)" : ""}</option>`)}
          </select></div>`
      : null}
    ${product ? html`<button type="button" onClick=${add}>Add ${product.name}</button>` : null}
    <${SaveError} error=${error} id="add-product-error" />
  </div>`;
}

function ProductRow({ row, currency, editable, reload }) {
  const { api } = useConsole();
  const save = async (changes) => {
    await api.patch(`/gig-products/${row.id}`, changes);
    await reload();
  };
  const removing = useWrite();
  const remove = async () => (await removing.run(() => api.delete(`/gig-products/${row.id}`))) && reload();
  const id = `product-${row.id}`;
  return html`<li class="product-row">
    <p class="product-name">${row.product ? row.product.name : "A product no longer in the catalog"}
      ${row.ensemble ? html` <span class="muted">· ${row.ensemble.name}</span>` : null}</p>
    <${InPlace} id=${`${id}-price`} field="price_cents" label="Price" type="number" editable=${editable}
      value=${row.price_cents === null ? null : row.price_cents / 100} display=${row.price_cents === null ? "" : money(row.price_cents, currency)}
      onSave=${(value) => save({ price_cents: typeof value === "number" ? Math.round(value * 100) : value })} />
    <${InPlace} id=${`${id}-start`} field="start_time" label="Start" type="time" value=${row.start_time} editable=${editable}
      onSave=${(value) => save({ start_time: value })} />
    <${InPlace} id=${`${id}-end`} field="end_time" label="End" type="time" value=${row.end_time} editable=${editable}
      onSave=${(value) => save({ end_time: value })} />
    ${editable ? html`<button type="button" class="quiet remove" onClick=${remove}
      aria-label=${`Remove ${row.product ? row.product.name : "the product"}`}>Remove</button>` : null}
    <${SaveError} error=${removing.error} id=${`${id}-error`} />
  </li>`;
}

export function Products({ gig, editable }) {
  const currency = useCurrency();
  const { rows, error, reload } = useRows("/gig-products", gig.id, { expand: "product,ensemble", sort: "position" });
  const total = (rows || []).reduce((sum, row) => sum + (row.price_cents || 0), 0);
  return html`<section class="gig-section" aria-labelledby="products-title">
    <h2 id="products-title">Products</h2>
    <${SaveError} error=${error} id="products-error" />
    ${rows && rows.length === 0 ? html`<p class="muted">No products yet.</p>` : null}
    ${rows && rows.length > 0
      ? html`<ul class="product-list">${rows.map((row) => html`<${ProductRow} key=${row.id} row=${row} currency=${currency} editable=${editable} reload=${reload} />`)}</ul>
        <p class="product-total">Total ${money(total, currency)}</p>`
      : null}
    ${editable ? html`<${AddProduct} gig=${gig} onAdded=${reload} />` : null}
  </section>`;
}
