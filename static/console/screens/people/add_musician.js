// Add musician (SPEC §12.1): a staff member with the roles they play (the first ticked their main one), their pay
// per product (pay.edit), and "can sign in", which gives them a sign-in and mails them a welcome with its link:
// one POST /musicians. Their page opens, saying so. Two API calls for the form (roles, products).

import { ErrorMessage, Loading } from "../../components/index.js";
import { Field, TextInput, typed } from "../../components/guided_field.js";
import { useConsole } from "../../context.js";
import { tell } from "../../happened.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { recordPath } from "../../paths.js";
import { navigate } from "../../router.js";
import { MusicianChoices } from "./musician_choices.js";

const PERSON = [
  ["first_name", "First name (required)", "text", "", { required: true, maxLength: 100 }],
  ["last_name", "Last name (required)", "text", "", { required: true, maxLength: 100 }],
  ["email", "E-mail", "email", "Invitations to gigs go here; needed to sign in.", { maxLength: 254 }],
  ["phone", "Phone", "tel", "", { maxLength: 50 }],
];

function body(values, roles, rates, canSignIn) {
  const paid = Object.entries(rates).filter(([, cents]) => typeof cents === "number");
  return {
    ...typed(values),
    roles,
    rates: paid.map(([product_id, amount_cents]) => ({ product_id, amount_cents })),
    can_sign_in: canSignIn,
  };
}

function MusicianForm({ catalogue }) {
  const { api, me } = useConsole();
  const [values, setValues] = useState({});
  const [roles, setRoles] = useState([]);
  const [rates, setRates] = useState({});
  const [canSignIn, setCanSignIn] = useState(true);
  const { error, busy, run } = useWrite();
  const submit = (event) => {
    event.preventDefault();
    run(async () => {
      const member = (await api.post("/musicians", body(values, roles, rates, canSignIn))).data;
      tell(`Added ${member.first_name}${canSignIn ? ": a welcome mail with a sign-in link is on its way" : ""}`);
      navigate(recordPath("staff-members", member.id));
    });
  };
  return html`<form class="guided-form" onSubmit=${submit} novalidate>
    ${PERSON.map(
      ([name, label, type, help, extra]) => html`<${Field} id=${`musician-${name}`} label=${label} help=${help} error=${error} field=${name}>
        <${TextInput} id=${`musician-${name}`} name=${name} type=${type} values=${values} setValues=${setValues} error=${error} ...${extra} /><//>`,
    )}
    <${MusicianChoices} catalogue=${catalogue} roles=${roles} setRoles=${setRoles} rates=${rates} setRates=${setRates}
      error=${error} withPay=${can(me, "pay.edit")} />
    <div class="form-field check-field">
      <label class="check"><input type="checkbox" checked=${canSignIn} aria-describedby="musician-sign-in-help"
        onChange=${(event) => setCanSignIn(event.target.checked)} /> Can sign in</label>
      <p class="help" id="musician-sign-in-help">They get a mail with a link to their own pages: their gigs, invitations to answer, pay.</p>
    </div>
    ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
    ${error && error.status === 422 ? html`<p class="error" role="alert">Not added yet: see the fields marked above.</p>` : null}
    <div class="actions"><button type="submit" disabled=${busy}>Add the musician</button></div>
  </form>`;
}

export default function AddMusician() {
  const { api, me } = useConsole();
  const found = useLoad(
    ({ signal }) =>
      Promise.all([
        api.get("/roles", { sort: "position,name", limit: 200 }, { signal }),
        api.get("/products", { "filter[active]": "true", sort: "position,name", limit: 50 }, { signal }),
      ]).then(([roles, products]) => ({ roles: roles.data, products: products.data })),
    [],
  );
  if (!can(me, "people.edit")) return html`<section class="screen"><h1>Add musician</h1><p>You may not add people.</p></section>`;
  return html`<section class="screen add-person">
    <header class="screen-header"><h1>Add musician</h1><a href="/people">Back to people</a></header>
    <p class="intro">Someone who plays or works on your gigs: what they play decides which gigs they are asked to.</p>
    <${ErrorMessage} error=${found.error} />
    ${found.answer ? html`<${MusicianForm} catalogue=${found.answer} />` : found.error ? null : html`<${Loading} />`}
  </section>`;
}
