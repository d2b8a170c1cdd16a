// A contract template's editor (SPEC §15): its name, its text with the merge fields listed beside it (a click puts
// one at the cursor) and its preview from a real gig below, whether it is the default and offered at all. Saving is one POST or PATCH; a refusal is said at
// its field (a merge field the text does not know is a 422 at body naming it and its line).

import { ErrorMessage, Loading } from "../../components/index.js";
import { SaveError, fieldMessage, useFocusOnInvalid } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { Happened, tell, useTold } from "../../happened.js";
import { html, useRef, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { contractTemplatePath } from "../../paths.js";
import { navigate } from "../../router.js";
import { ContractPreview } from "./contract_preview.js";

async function loadTemplate(api, id, signal) {
  const template = id === "new" ? { name: "", body: "", is_default: false, active: true } : (await api.get(`/contract-templates/${id}`, {}, { signal })).data;
  const fields = (await api.get("/contract-merge-fields", {}, { signal })).data;
  return { template, fields };
}

function MergeFields({ fields, insert, editable }) {
  return html`<aside class="merge-fields" aria-labelledby="merge-fields-heading">
    <h2 id="merge-fields-heading">Merge fields</h2>
    <p>Written <code>{{ name }}</code>; filled in from the gig, in the client's language.</p>
    <ul>${fields.map((field) => html`<li key=${field.name}>
      ${editable
        ? html`<button type="button" class="quiet" onClick=${() => insert(`{{ ${field.name} }}`)}>${`{{ ${field.name} }}`}</button>`
        : html`<code>${`{{ ${field.name} }}`}</code>`}
      ${field.description ? html`<span class="quiet-text"> ${field.description}</span>` : null}
    </li>`)}</ul>
  </aside>`;
}

function TemplateForm({ template, fields, editable }) {
  const { api } = useConsole();
  const [values, setValues] = useState(() => ({ name: template.name, body: template.body, is_default: template.is_default, active: template.active }));
  const saving = useWrite();
  const form = useFocusOnInvalid(saving.error);
  const body = useRef(null);
  const set = (name, value) => setValues((before) => ({ ...before, [name]: value }));
  const insert = (text) => {
    const area = body.current;
    const at = area ? area.selectionStart : values.body.length;
    set("body", values.body.slice(0, at) + text + values.body.slice(area ? area.selectionEnd : at));
  };
  const said = (name) => fieldMessage(saving.error, name);
  const submit = (event) => {
    event.preventDefault();
    saving.run(async () => {
      const sent = { ...values, name: values.name || null, body: values.body || null };
      const saved = template.id ? await api.patch(`/contract-templates/${template.id}`, sent) : await api.post("/contract-templates", sent);
      tell(template.id ? "Saved the template." : "Created the template.");
      navigate(contractTemplatePath(saved.data.id), { replace: Boolean(template.id) });
    });
  };
  const invalid = (name) => ({ "aria-invalid": said(name) ? "true" : null, "aria-describedby": said(name) ? `template-${name}-error` : null });
  const error = (name) => (said(name) ? html`<p class="field-error" id=${`template-${name}-error`} role="alert">${said(name)}</p>` : null);
  return html`<div class="template-editor"><div class="template-main">
    <form ref=${form} onSubmit=${submit} class="template-form">
      <div class="field"><label for="template-name">Name</label>
        <input id="template-name" type="text" value=${values.name} disabled=${!editable} ...${invalid("name")}
          onInput=${(event) => set("name", event.currentTarget.value)} />${error("name")}</div>
      <div class="field"><label for="template-body">Text</label>
        <textarea id="template-body" ref=${body} rows="18" value=${values.body} disabled=${!editable} ...${invalid("body")}
          onInput=${(event) => set("body", event.currentTarget.value)} />${error("body")}</div>
      <label class="check"><input type="checkbox" checked=${values.is_default} disabled=${!editable}
        onChange=${(event) => set("is_default", event.currentTarget.checked)} /> The default for new contracts</label>
      <label class="check"><input type="checkbox" checked=${values.active} disabled=${!editable}
        onChange=${(event) => set("active", event.currentTarget.checked)} /> Offered for new contracts</label>
      ${saving.error && !said("name") && !said("body") ? html`<${SaveError} error=${saving.error} id="template-error" />` : null}
      ${editable ? html`<button type="submit" disabled=${saving.busy}>Save the template</button>` : null}
    </form>
    <${ContractPreview} body=${values.body} />
  </div><${MergeFields} fields=${fields} insert=${insert} editable=${editable} /></div>`;
}

export default function ContractTemplate({ params }) {
  const { api, me } = useConsole();
  const told = useTold();
  const found = useLoad(({ signal }) => loadTemplate(api, params.id, signal), [params.id]);
  const loaded = found.answer;
  const title = params.id === "new" ? "New contract template" : loaded ? loaded.template.name : "Contract template";
  return html`<section class="screen contract-template">
    <a class="back" href=${contractTemplatePath()}>‹ Contract templates</a>
    <header class="screen-header"><h1>${title}</h1>${told ? html`<${Happened} words=${told} />` : null}</header>
    <${ErrorMessage} error=${found.error} />
    ${!loaded && !found.error ? html`<${Loading} />` : null}
    ${loaded ? html`<${TemplateForm} key=${loaded.template.id || "new"} template=${loaded.template} fields=${loaded.fields} editable=${can(me, "sales.edit")} />` : null}
  </section>`;
}
