// /admin/api-keys (SPEC §3, §12 screen 7): the signed-in user's live API keys (label, prefix, expiry, last use),
// a new one made and its value shown once with a copy button, and revoking one.

import { ErrorMessage, Loading } from "../../components/index.js";
import { ShownOnce } from "../../components/shown_once.js";
import { useConsole } from "../../context.js";
import { moment } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";

function NewKeyForm({ onMade }) {
  const { api } = useConsole();
  const [label, setLabel] = useState("");
  const [days, setDays] = useState("365");
  const { error, run } = useWrite();
  function make(event) {
    event.preventDefault();
    return run(async () => {
      const made = (await api.post("/api-keys", { label: label.trim(), expires_in_days: Number(days) })).data;
      setLabel("");
      onMade(made);
    });
  }
  const at = (field) => error && error.details && error.details[field];
  return html`<form class="admin-form" onSubmit=${make} novalidate>
    <label>Label <input id="key-label" value=${label} maxlength="100" required aria-invalid=${at("label") ? "true" : null}
      aria-describedby=${at("label") ? "key-label-error" : null} onInput=${(event) => setLabel(event.currentTarget.value)} /></label>
    <label>Expires in (days) <input type="number" min="1" max="3650" value=${days} aria-invalid=${at("expires_in_days") ? "true" : null}
      onInput=${(event) => setDays(event.currentTarget.value)} /></label>
    <button type="submit">Make a key</button>
    ${at("label") ? html`<p class="field-error" id="key-label-error">Label: ${at("label").join(" ")}</p>` : null}
    ${at("expires_in_days") ? html`<p class="field-error">Expires in: ${at("expires_in_days").join(" ")}</p>` : null}
    ${error && error.status !== 422 ? html`<${ErrorMessage} error=${error} />` : null}
  </form>`;
}

function KeyRow({ apiKey, onRevoke }) {
  const [asking, setAsking] = useState(false);
  return html`<li>
    <strong>${apiKey.label}</strong>
    <code>${apiKey.prefix}…</code>
    <span class="muted">expires ${moment(apiKey.expires_at)}</span>
    <span class="muted">${apiKey.last_used_at ? `last used ${moment(apiKey.last_used_at)}` : "never used"}</span>
    ${asking
      ? html`<span>Revoke “${apiKey.label}”? <button type="button" class="danger" onClick=${() => onRevoke(apiKey)}>Yes, revoke</button>
          <button type="button" class="quiet" onClick=${() => setAsking(false)}>Keep it</button></span>`
      : html`<button type="button" class="danger quiet" aria-label=${`Revoke ${apiKey.label}`} onClick=${() => setAsking(true)}>Revoke…</button>`}
  </li>`;
}

export default function ApiKeys() {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/api-keys", { limit: 200 }), []);
  const { error: failure, run } = useWrite();
  const [made, setMade] = useState(null);
  const keys = found.answer && found.answer.data;
  const error = failure || found.error;
  const load = found.reload;
  function revoke(apiKey) {
    return run(async () => {
      await api.delete(`/api-keys/${encodeURIComponent(apiKey.id)}`);
      await load();
    });
  }
  return html`<section class="screen api-keys">
    <header class="screen-header"><h1>API keys</h1>
      <nav class="screen-actions" aria-label="Actions"><a href="/admin">Admin</a></nav></header>
    <p>A key lets a script or another program use the band office as you. Keep it like a password.</p>
    ${made
      ? html`<${ShownOnce} label=${`Your new API key “${made.label}”`} value=${made.key} onDone=${() => setMade(null)} />`
      : html`<${NewKeyForm} onMade=${(key) => { setMade(key); load(); }} />`}
    <${ErrorMessage} error=${error} />
    ${!keys && !error ? html`<${Loading} />` : null}
    ${keys && keys.length === 0 ? html`<p>You have no API keys.</p>` : null}
    ${keys && keys.length > 0
      ? html`<ul class="keys-list" aria-label="Your API keys">${keys.map((apiKey) => html`<${KeyRow} key=${apiKey.id} apiKey=${apiKey} onRevoke=${revoke} />`)}</ul>`
      : null}
  </section>`;
}
