// A secret the API shows only once (a new API key, a webhook endpoint's signing secret): said to be shown once,
// with a button that copies it (navigator.clipboard) and says it did, and one that puts it away.
//
//   <${ShownOnce} label="Your new API key" value=${key} onDone=${() => setKey(null)} />

import { html, useEffect, useRef, useState } from "../lib.js";

export function ShownOnce({ label, value, onDone, doneLabel = "Done" }) {
  const [copied, setCopied] = useState(null);
  const box = useRef(null);
  useEffect(() => box.current && box.current.focus(), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is not allowed here: select the text and copy it.");
    }
  }
  return html`<div class="shown-once" ref=${box} tabindex="-1" role="region" aria-label=${label}>
    <p><strong>${label}</strong>: copy it now, it is shown only once.</p>
    <dl><div><dt class="visually-hidden">${label}</dt><dd>
      <code class="secret">${value}</code>
      <button type="button" onClick=${copy}>Copy</button>
      <span role="status">${copied || ""}</span>
    </dd></div></dl>
    ${onDone ? html`<button type="button" class="quiet" onClick=${onDone}>${doneLabel}</button>` : null}
  </div>`;
}
