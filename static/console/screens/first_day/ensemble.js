// The first day's third step (SPEC §12.1): an ensemble (the line-up a product is played by), the roles it needs,
// how many of each and what each is paid per gig (the role's rate, in money), and the products it plays (its
// usual ensemble where a product has none yet). Made with POST /ensembles, /roles (a role not there yet),
// /ensemble-roles, /rates and /product-ensembles; a role that has a rate already keeps it.

import { ApiError } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { Field, TextInput } from "../../components/guided_field.js";
import { MoneyInput } from "../../components/money_input.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { StepActions, StepScreen, done } from "./step_form.js";

const LIMIT = 200;
const EMPTY_ROLE = { name: "", quantity: "1", cents: null };
const refused = (field, words) => new ApiError(422, "validation_failed", "Not saved.", { [field]: words });

function load(api, signal) {
  return Promise.all([
    api.get("/products", { "filter[active]": "true", sort: "position,name", limit: LIMIT }, { signal }),
    api.get("/roles", { sort: "name", limit: LIMIT }, { signal }),
    api.get("/product-ensembles", { limit: LIMIT }, { signal }),
  ]).then(([products, roles, offered]) => ({ products: products.data, roles: roles.data, offered: offered.data }));
}

function check(values, rows) {
  const named = rows.filter((row) => row.name.trim());
  if (named.length === 0) throw refused("roles", "Name at least one role, such as Lead vocals.");
  if (named.some((row) => row.cents !== null && typeof row.cents !== "number")) throw refused("roles", "Type each pay as money, such as 450 or 450,00.");
  if (named.some((row) => !(Number(row.quantity) >= 1))) throw refused("roles", "Each role is needed at least once.");
  return named;
}

async function roleOf(api, catalogue, name) {
  const known = catalogue.roles.find((role) => role.name.toLowerCase() === name.trim().toLowerCase());
  return known || (await api.post("/roles", { name: name.trim() })).data;
}

async function create(api, catalogue, values, rows, playing) {
  const ensemble = (await api.post("/ensembles", { name: values.name })).data;
  for (const row of rows) {
    const role = await roleOf(api, catalogue, row.name);
    await api.post("/ensemble-roles", { ensemble_id: ensemble.id, role_id: role.id, quantity: Number(row.quantity) });
    if (typeof row.cents !== "number") continue;
    await api.post("/rates", { role_id: role.id, amount_cents: row.cents }).catch((error) => {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    });
  }
  for (const productId of playing) {
    const usual = !catalogue.offered.some((one) => one.product_id === productId);
    await api.post("/product-ensembles", { product_id: productId, ensemble_id: ensemble.id, is_default: usual });
  }
  return ensemble;
}

function RoleRows({ rows, setRows }) {
  const change = (i, name, value) => setRows(rows.map((row, j) => (j === i ? { ...row, [name]: value } : row)));
  return html`<fieldset class="role-rows">
    <legend>The roles it needs</legend>
    <p class="help" id="roles-help">Each role, how many of it, and what each of them is paid per gig.</p>
    ${rows.map(
      (row, i) => html`<div class="role-row" key=${i} role="group" aria-label=${`Role ${i + 1}`}>
        <div class="form-field"><label for=${`role-${i}-name`}>Role</label>
          <input id=${`role-${i}-name`} list="known-roles" value=${row.name} maxLength="200"
            onInput=${(event) => change(i, "name", event.target.value)} /></div>
        <div class="form-field quantity"><label for=${`role-${i}-quantity`}>How many</label>
          <input id=${`role-${i}-quantity`} type="number" min="1" value=${row.quantity}
            onInput=${(event) => change(i, "quantity", event.target.value)} /></div>
        <div class="form-field"><label for=${`role-${i}-pay`}>Pay per gig</label>
          <${MoneyInput} id=${`role-${i}-pay`} cents=${row.cents} onChange=${(cents) => change(i, "cents", cents)} /></div>
      </div>`,
    )}
    <button type="button" class="quiet" onClick=${() => setRows([...rows, { ...EMPTY_ROLE }])}>Add another role</button>
  </fieldset>`;
}

function Playing({ products, playing, setPlaying }) {
  if (products.length === 0) return null;
  const toggle = (id) => setPlaying(playing.includes(id) ? playing.filter((one) => one !== id) : [...playing, id]);
  return html`<fieldset class="playing">
    <legend>What it plays</legend>
    <p class="help">A gig with these gets this ensemble's roles to fill.</p>
    ${products.map(
      (product) => html`<label class="check" key=${product.id}>
        <input type="checkbox" checked=${playing.includes(product.id)} onChange=${() => toggle(product.id)} /> ${product.name}</label>`,
    )}
  </fieldset>`;
}

function EnsembleForm({ catalogue }) {
  const { api } = useConsole();
  const [values, setValues] = useState({ name: "" });
  const [rows, setRows] = useState([{ ...EMPTY_ROLE }, { ...EMPTY_ROLE }]);
  const alone = catalogue.products.filter((product) => !catalogue.offered.some((one) => one.product_id === product.id));
  const [playing, setPlaying] = useState(alone.map((product) => product.id));
  const { error, busy, run } = useWrite();
  const submit = (event) => {
    event.preventDefault();
    run(async () => {
      const ensemble = await create(api, catalogue, values, check(values, rows), playing);
      done(`Created ${ensemble.name}`);
    });
  };
  const rolesSaid = error && error.status === 422 && error.details && error.details.roles;
  return html`<form class="guided-form" onSubmit=${submit} novalidate>
    <${Field} id="ensemble-name" label="Name" help="Such as Full band, Trio or Duo." error=${error} field="name">
      <${TextInput} id="ensemble-name" name="name" required maxLength="200" values=${values} setValues=${setValues} error=${error} /><//>
    <datalist id="known-roles">${catalogue.roles.map((role) => html`<option value=${role.name} />`)}</datalist>
    <${RoleRows} rows=${rows} setRows=${setRows} />
    ${rolesSaid ? html`<p class="error field-error" role="alert">${rolesSaid}</p>` : null}
    <${Playing} products=${catalogue.products} playing=${playing} setPlaying=${setPlaying} />
    <${StepActions} error=${error} busy=${busy} label="Create the ensemble" />
  </form>`;
}

export default function EnsembleStep() {
  const { api } = useConsole();
  const found = useLoad(({ signal }) => load(api, signal), []);
  return html`<${StepScreen} title="Who plays it" intro="A line-up of your band, the roles it needs and what each role is paid.">
    <${ErrorMessage} error=${found.error} />
    ${found.answer ? html`<${EnsembleForm} catalogue=${found.answer} />` : found.error ? null : html`<${Loading} />`}
  <//>`;
}
