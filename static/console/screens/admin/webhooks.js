// /admin/webhooks (SPEC §8, §12 screen 7): the webhook endpoints (where they send, what, whether switched off),
// each a link to its page with the delivery log; a new one made here, its signing secret shown once.

import { ErrorMessage, Loading } from "../../components/index.js";
import { ShownOnce } from "../../components/shown_once.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { webhookPath } from "../../paths.js";
import { navigate } from "../../router.js";

function lines(text) {
  return text.split(/[\n,]/).map((line) => line.trim()).filter(Boolean);
}

function NewEndpointForm({ onMade }) {
  const { api } = useConsole();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState("*");
  const [includePay, setIncludePay] = useState(false);
  const { error, run } = useWrite();
  function make(event) {
    return run(async () => {
      event.preventDefault();
      const body = { url: url.trim(), event_types: lines(types), include_pay: includePay };
      if (description.trim()) body.description = description.trim();
      onMade((await api.post("/webhook-endpoints", body)).data);
    });
  }
  const at = (field) => error && error.status === 422 && error.details && error.details[field];
  const problem = (field, id) => (at(field) ? html`<span class="field-error" id=${id}>${at(field).join(" ")}</span>` : null);
  return html`<form class="admin-form" aria-label="New webhook endpoint" onSubmit=${make} novalidate>
    <label>URL <input id="endpoint-url" type="url" required value=${url} placeholder="https://example.com/hooks"
      aria-invalid=${at("url") ? "true" : null} aria-describedby=${at("url") ? "endpoint-url-error" : null}
      onInput=${(event) => setUrl(event.currentTarget.value)} />${problem("url", "endpoint-url-error")}</label>
    <label>Description <input value=${description} onInput=${(event) => setDescription(event.currentTarget.value)} /></label>
    <label>Events (comma-separated: gig.*, gig_role.updated, or *)
      <input value=${types} aria-invalid=${at("event_types") ? "true" : null} onInput=${(event) => setTypes(event.currentTarget.value)} />
      ${problem("event_types", "endpoint-types-error")}</label>
    <label class="check"><input type="checkbox" checked=${includePay} onChange=${(event) => setIncludePay(event.currentTarget.checked)} />
      Include pay amounts</label>
    <button type="submit">Add endpoint</button>
    ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
  </form>`;
}

export function EndpointState({ endpoint }) {
  if (endpoint.is_active) return html`<span class="status status-confirmed">active</span>`;
  return html`<span class="status status-cancelled">off</span>${endpoint.disabled_reason ? html` <span class="muted">${endpoint.disabled_reason}</span>` : null}`;
}

export default function Webhooks() {
  const { api, me } = useConsole();
  const found = useLoad(() => api.get("/webhook-endpoints", { limit: 200 }), []);
  const [made, setMade] = useState(null);
  const endpoints = found.answer && found.answer.data;
  const { error, reload: load } = found;
  return html`<section class="screen webhooks">
    <header class="screen-header"><h1>Webhook endpoints</h1>
      <nav class="screen-actions" aria-label="Actions"><a href="/admin">Admin</a><a href="/records/webhook-deliveries">Delivery log</a></nav></header>
    ${made
      ? html`<${ShownOnce} label="The signing secret of the new endpoint" value=${made.secret}
          doneLabel="Done: open the endpoint" onDone=${() => navigate(webhookPath(made.id))} />`
      : can(me, "admin.edit")
        ? html`<${NewEndpointForm} onMade=${(endpoint) => { setMade(endpoint); load(); }} />`
        : null}
    <${ErrorMessage} error=${error} />
    ${!endpoints && !error ? html`<${Loading} />` : null}
    ${endpoints && endpoints.length === 0 ? html`<p>No webhook endpoints yet.</p>` : null}
    ${endpoints && endpoints.length > 0
      ? html`<ul class="endpoint-list" aria-label="Webhook endpoints">${endpoints.map(
          (endpoint) => html`<li>
            <a href=${webhookPath(endpoint.id)}>${endpoint.url}</a>
            <${EndpointState} endpoint=${endpoint} />
            <span class="muted">${endpoint.description || ""}</span>
            <span class="muted">${endpoint.event_types.join(", ")}</span>
          </li>`,
        )}</ul>`
      : null}
  </section>`;
}
