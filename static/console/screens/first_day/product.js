// The first day's second step (SPEC §12.1): what the band sells, with its price in money (typed as a person
// writes it: MoneyInput), made with POST /products and POST /prices (in the office's currency: the API's default,
// which follows the office step's change). A price refused takes its product back, so that a second try starts
// afresh.

import { ApiError } from "../../api.js";
import { Field, TextInput, describedBy, typed } from "../../components/guided_field.js";
import { MoneyInput } from "../../components/money_input.js";
import { fieldMessage, useFocusOnInvalid } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { StepActions, StepScreen, done } from "./step_form.js";

const NOT_MONEY = new ApiError(422, "validation_failed", "Not saved.", { amount_cents: "Type the price as money, such as 4500 or 4.500,00." });

async function create(api, values, cents) {
  const product = (await api.post("/products", typed(values))).data;
  try {
    await api.post("/prices", { product_id: product.id, amount_cents: cents });
  } catch (error) {
    await api.delete(`/products/${product.id}`);
    throw error;
  }
  return product;
}

export default function ProductStep() {
  const { api } = useConsole();
  const [values, setValues] = useState({ name: "", description: "" });
  const [cents, setCents] = useState(null);
  const { error, busy, run } = useWrite();
  const form = useFocusOnInvalid(error);
  const shared = { values, setValues, error };
  const submit = (event) => {
    event.preventDefault();
    run(async () => {
      if (typeof cents !== "number" || cents < 0) throw NOT_MONEY;
      const product = await create(api, values, cents);
      done(`Created ${product.name}`);
    });
  };
  const priceSaid = fieldMessage(error, "amount_cents");
  return html`<${StepScreen} title="What you sell" intro="Something a client books, such as a reception or a ceremony, and what it costs them.">
    <form class="guided-form" ref=${form} onSubmit=${submit} novalidate>
      <${Field} id="product-name" label="Name" help="As a client reads it, such as Reception or Ceremony." error=${error} field="name">
        <${TextInput} id="product-name" name="name" required maxLength="200" ...${shared} /><//>
      <${Field} id="product-price" label="Price" help="What the client pays for it, typed as 4500 or 4.500,00." error=${error} field="amount_cents">
        <${MoneyInput} id="product-price" cents=${cents} onChange=${setCents} required
          invalid=${Boolean(priceSaid)} describedBy=${describedBy("product-price", error, "amount_cents")} /><//>
      <${Field} id="product-description" label="What it is (optional)" help="A line for quotes, such as the hours and the music." error=${error} field="description">
        <${TextInput} id="product-description" name="description" ...${shared} /><//>
      <${StepActions} error=${error} busy=${busy} label="Create it" />
    </form>
  <//>`;
}
