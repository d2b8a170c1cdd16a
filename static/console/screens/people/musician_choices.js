// What a new musician plays and earns (Add musician, SPEC §12.1): the roles as boxes to tick (the first ticked is
// their main one), and with pay.edit their pay per product in money (left empty: the role's usual rate).

import { fieldMessage } from "../../components/save_error.js";
import { MoneyInput } from "../../components/money_input.js";
import { html } from "../../lib.js";

function Roles({ all, roles, setRoles, error }) {
  const toggle = (id) => setRoles(roles.includes(id) ? roles.filter((one) => one !== id) : [...roles, id]);
  const said = fieldMessage(error, "roles");
  return html`<fieldset class="choices">
    <legend>What they play</legend>
    <p class="help">Tick their main role first: they are asked to gigs that need what they play.</p>
    ${all.length === 0 ? html`<p class="muted">No roles yet: <a href="/first-day/ensemble">set up an ensemble</a> first.</p>` : null}
    ${all.map(
      (role) => html`<label class="check" key=${role.id}>
        <input type="checkbox" checked=${roles.includes(role.id)} onChange=${() => toggle(role.id)} /> ${role.name}
        ${roles[0] === role.id ? html` <span class="badge">main</span>` : null}</label>`,
    )}
    ${said ? html`<p class="error field-error" role="alert">${said}</p>` : null}
  </fieldset>`;
}

function Rates({ products, rates, setRates, error }) {
  if (products.length === 0) return null;
  const said = fieldMessage(error, "rates");
  return html`<fieldset class="choices rates">
    <legend>Their pay (optional)</legend>
    <p class="help">What they get per gig for each product, where it is not their role's usual pay.</p>
    ${products.map(
      (product) => html`<div class="form-field" key=${product.id}>
        <label for=${`rate-${product.id}`}>${product.name}</label>
        <${MoneyInput} id=${`rate-${product.id}`} cents=${rates[product.id] ?? null}
          onChange=${(cents) => setRates({ ...rates, [product.id]: cents })} />
      </div>`,
    )}
    ${said ? html`<p class="error field-error" role="alert">${said}</p>` : null}
  </fieldset>`;
}

export function MusicianChoices({ catalogue, roles, setRoles, rates, setRates, error, withPay }) {
  return html`<${Roles} all=${catalogue.roles} roles=${roles} setRoles=${setRoles} error=${error} />
    ${withPay ? html`<${Rates} products=${catalogue.products} rates=${rates} setRates=${setRates} error=${error} />` : null}`;
}
