// Small pieces every screen may use: a gig status with its kind's colour and its word, an error said in words,
// a quiet "Loading…".

import { html } from "../lib.js";

const KINDS = ["inquiry", "tentative", "confirmed", "completed", "cancelled"];

/** A gig status ({name, kind}) as a coloured label; the name is the word that goes with the colour. */
export function StatusBadge({ status }) {
  if (!status) return null;
  const kind = KINDS.includes(status.kind) ? status.kind : "inquiry";
  return html`<span class=${`status status-${kind}`}>${status.name}</span>`;
}

/** What an API error said, in words (its message and the fields' messages). */
export function ErrorMessage({ error }) {
  if (!error) return null;
  const details = error.details && typeof error.details === "object" ? Object.entries(error.details) : [];
  return html`<div class="error" role="alert">
    <p>${error.message}</p>
    ${details.length > 0 && html`<ul>${details.map(([field, message]) => html`<li>${field}: ${String(message)}</li>`)}</ul>`}
  </div>`;
}

export function Loading() {
  return html`<p class="loading" role="status">Loading…</p>`;
}
