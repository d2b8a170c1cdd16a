// Admin's contract templates (SPEC §15): the templates by name (the default one marked, inactive ones said), a link
// to each one's editor and "New template".

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { contractTemplatePath } from "../../paths.js";

export default function ContractTemplates() {
  const { api, me } = useConsole();
  const found = useLoad(({ signal }) => api.get("/contract-templates", { sort: "name", limit: 200, fields: "id,name,is_default,active" }, { signal }), []);
  const templates = found.answer && found.answer.data;
  return html`<section class="screen contract-templates">
    <header class="screen-header"><h1>Contract templates</h1></header>
    <p>The text a new contract starts from. Merge fields, such as the couple's names, are filled in from the gig.</p>
    <${ErrorMessage} error=${found.error} />
    ${!templates && !found.error ? html`<${Loading} />` : null}
    ${templates && templates.length === 0 ? html`<p>No contract templates yet.</p>` : null}
    ${templates && templates.length > 0
      ? html`<ul class="template-list">
          ${templates.map((template) => html`<li key=${template.id}>
            <a href=${contractTemplatePath(template.id)}>${template.name}</a>
            ${template.is_default ? html` <span class="badge">default</span>` : null}
            ${template.active ? null : html` <span class="quiet-text">(not offered)</span>`}
          </li>`)}
        </ul>`
      : null}
    ${can(me, "sales.edit") ? html`<p><a class="button" href=${contractTemplatePath("new")}>New template</a></p>` : null}
  </section>`;
}
