// /admin/webhooks/:id (SPEC §8, §12 screen 7): one webhook endpoint: where it sends and what, ping it, rotate its
// secret (the new one shown once), change it (the generic form), and its delivery log: each delivery's event,
// status, attempts and last answer, with "Redeliver". While a delivery is pending the log is asked again every
// few seconds.

import { ErrorMessage, Loading } from "../../components/index.js";
import { ShownOnce } from "../../components/shown_once.js";
import { useConsole } from "../../context.js";
import { moment } from "../../format.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { can } from "../../me.js";
import { formPath } from "../../paths.js";
import { EndpointState } from "./webhooks.js";

const POLL_MS = 2000;
const STATUS_CLASS = { succeeded: "status-confirmed", failed: "status-cancelled", pending: "status-tentative" };

/** The endpoint's deliveries, asked again every POLL_MS while one is pending. */
function useDeliveries(id, version) {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/webhook-deliveries", { "filter[endpoint_id][eq]": id, limit: 50 }), [id, version]);
  const deliveries = found.answer && found.answer.data;
  useEffect(() => {
    if (!deliveries || !deliveries.some((delivery) => delivery.status === "pending")) return undefined;
    const timer = setTimeout(found.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [deliveries]);
  return [deliveries, found.error];
}

function DeliveryRow({ delivery, mayEdit, onRedeliver }) {
  return html`<tr>
    <th scope="row">${delivery.event_type}</th>
    <td><span class=${`status ${STATUS_CLASS[delivery.status] || ""}`}>${delivery.status}</span></td>
    <td class="kind-integer">${delivery.attempts}</td>
    <td>${delivery.last_status_code ?? ""}</td>
    <td>${moment(delivery.last_attempt_at)}</td>
    <td>${delivery.last_error || ""}</td>
    <td>${mayEdit ? html`<button type="button" class="quiet" aria-label=${`Redeliver ${delivery.event_type}`} onClick=${() => onRedeliver(delivery)}>Redeliver</button>` : null}</td>
  </tr>`;
}

function Deliveries({ id, version, mayEdit, onRedeliver }) {
  const [deliveries, error] = useDeliveries(id, version);
  if (error) return html`<${ErrorMessage} error=${error} />`;
  if (!deliveries) return html`<${Loading} />`;
  if (deliveries.length === 0) return html`<p>Nothing has been sent to this endpoint yet.</p>`;
  return html`<div class="table-scroll" role="region" aria-label="Deliveries" tabindex="0"><table class="records deliveries">
    <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th>
      <th scope="col">Last attempt</th><th scope="col">Error</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${deliveries.map((delivery) => html`<${DeliveryRow} key=${delivery.id} delivery=${delivery} mayEdit=${mayEdit} onRedeliver=${onRedeliver} />`)}</tbody>
  </table></div>`;
}

export default function Webhook({ params }) {
  const { api, me } = useConsole();
  const { error: failure, run } = useWrite();
  const [secret, setSecret] = useState(null);
  const [said, setSaid] = useState("");
  const [version, setVersion] = useState(0);
  const path = `/webhook-endpoints/${encodeURIComponent(params.id)}`;
  const found = useLoad(() => api.get(path), [params.id]);
  const endpoint = found.answer && found.answer.data;
  const error = failure || found.error;
  const mayEdit = can(me, "admin.edit");

  const act = (doing, words) =>
    run(async () => {
      await doing();
      setSaid(words);
      setVersion((number) => number + 1);
    });
  const ping = () => act(() => api.post(`${path}/ping`), "Ping queued: it shows in the deliveries below.");
  const rotate = () => act(async () => setSecret((await api.post(`${path}/rotate-secret`)).data.secret), "A new secret: the old one still signs for 24 hours.");
  const redeliver = (delivery) =>
    act(() => api.post(`/webhook-deliveries/${encodeURIComponent(delivery.id)}/redeliver`), `${delivery.event_type}: one more attempt queued.`);

  return html`<section class="screen webhook">
    <header class="screen-header"><h1>Webhook endpoint</h1>
      <nav class="screen-actions" aria-label="Actions"><a href="/admin/webhooks">All endpoints</a></nav></header>
    ${!endpoint && !error ? html`<${Loading} />` : null}
    ${endpoint
      ? html`<dl class="read-only">
          <div><dt>URL</dt><dd>${endpoint.url}</dd></div>
          <div><dt>State</dt><dd><${EndpointState} endpoint=${endpoint} /></dd></div>
          <div><dt>Events</dt><dd>${endpoint.event_types.join(", ")}</dd></div>
          <div><dt>Pay amounts</dt><dd>${endpoint.include_pay ? "included" : "left out"}</dd></div>
          <div><dt>Secret begins</dt><dd><code>${endpoint.secret_prefix}…</code></dd></div>
          ${endpoint.description ? html`<div><dt>Description</dt><dd>${endpoint.description}</dd></div>` : null}
        </dl>`
      : null}
    ${secret ? html`<${ShownOnce} label="The endpoint's new signing secret" value=${secret} onDone=${() => setSecret(null)} />` : null}
    ${endpoint && mayEdit
      ? html`<div class="endpoint-actions">
          <button type="button" onClick=${ping}>Ping</button>
          <button type="button" class="quiet" onClick=${rotate}>Rotate secret</button>
          <a href=${formPath("webhook-endpoints", endpoint.id)}>Change or delete…</a>
        </div>`
      : null}
    <p role="status">${said}</p>
    <${ErrorMessage} error=${error} />
    <h2>Deliveries</h2>
    <${Deliveries} id=${params.id} version=${version} mayEdit=${mayEdit} onRedeliver=${redeliver} />
  </section>`;
}
