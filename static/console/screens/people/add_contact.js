// Add contact (SPEC §12.1): a client's contact in a guided form (name, e-mail, phone, company), made with
// POST /contacts; their page opens, saying so.

import { ErrorMessage } from "../../components/index.js";
import { Field, TextInput, typed } from "../../components/guided_field.js";
import { useConsole } from "../../context.js";
import { tell } from "../../happened.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { can } from "../../me.js";
import { recordPath } from "../../paths.js";
import { navigate } from "../../router.js";
import { fullName } from "./index.js";

const FIELDS = [
  ["first_name", "First name", "text", "", { required: true, maxLength: 100 }],
  ["last_name", "Last name", "text", "", { maxLength: 100 }],
  ["email", "E-mail", "email", "Where quotes, contracts and invoices go.", { maxLength: 254 }],
  ["phone", "Phone", "tel", "", { maxLength: 50 }],
  ["company", "Company", "text", "For a client that is a firm, or the planner's agency.", { maxLength: 200 }],
];

export default function AddContact() {
  const { api, me } = useConsole();
  const [values, setValues] = useState({});
  const { error, busy, run } = useWrite();
  if (!can(me, "people.edit")) return html`<section class="screen"><h1>Add contact</h1><p>You may not add people.</p></section>`;
  const submit = (event) => {
    event.preventDefault();
    run(async () => {
      const contact = (await api.post("/contacts", typed(values))).data;
      tell(`Added ${fullName(contact)}`);
      navigate(recordPath("contacts", contact.id));
    });
  };
  return html`<section class="screen add-person">
    <header class="screen-header"><h1>Add contact</h1><a href="/people">Back to people</a></header>
    <p class="intro">A client, or someone who books for one: a couple, a planner, a firm's events office.</p>
    <form class="guided-form" onSubmit=${submit} novalidate>
      ${FIELDS.map(
        ([name, label, type, help, extra]) => html`<${Field} id=${`contact-${name}`} label=${extra.required ? `${label} (required)` : label}
          help=${help} error=${error} field=${name}>
          <${TextInput} id=${`contact-${name}`} name=${name} type=${type} values=${values} setValues=${setValues} error=${error} ...${extra} /><//>`,
      )}
      ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
      <div class="actions"><button type="submit" disabled=${busy}>Add the contact</button></div>
    </form>
  </section>`;
}
