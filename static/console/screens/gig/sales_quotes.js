// The Sales tab's quotes and contracts (SPEC §15): a quote with its number, status, validity, lines and totals, its
// PDF and the operations its status allows (send; accept or decline on the client's behalf); a contract's text
// shown (edited while draft), its PDF, send, sign on the client's behalf (the name they signed with on paper) and
// void (with a reason).

import { fieldMessage } from "../../components/save_error.js";
import { Operation, PdfButton, SalesStatus, documentName } from "../../components/sales.js";
import { useConsole } from "../../context.js";
import { date, moment } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { Lines } from "./sales_lines.js";

const QUOTE_OPERATIONS = {
  draft: [["Send to the client", "send"]],
  sent: [["Accept for them", "accept"], ["Decline for them", "decline"]],
};

function DocumentHead({ collection, record, children }) {
  return html`<div class="sales-head">
    <h4>${documentName(collection, record)}</h4>
    <${SalesStatus} status=${record.status} />
    ${children}
    <${PdfButton} collection=${collection} record=${record} />
  </div>`;
}

export function Quote({ quote, lines, canEdit, done }) {
  const operations = canEdit ? QUOTE_OPERATIONS[quote.status] || [] : [];
  return html`<article class="sales-document" aria-label=${documentName("quotes", quote)}>
    <${DocumentHead} collection="quotes" record=${quote}>
      <span class="quiet-text">${quote.sent_at ? `sent ${moment(quote.sent_at)} · ` : ""}valid until ${date(quote.valid_until)}</span>
    <//>
    <${Lines} document=${quote} parent="quote" lines=${lines} editable=${canEdit && quote.status === "draft"} done=${done} />
    <div class="operations">
      ${operations.map(([label, verb]) => html`<${Operation} key=${verb} label=${label} path=${`/quotes/${quote.id}/${verb}`} body=${{}} done=${done} />`)}
    </div>
  </article>`;
}

function ContractText({ contract, editable, done }) {
  const { api } = useConsole();
  const [text, setText] = useState(contract.body || "");
  const saving = useWrite();
  const id = `contract-${contract.id}-body`;
  if (!editable) {
    return html`<details class="contract-preview"><summary>The contract's text</summary>
      <div class="contract-body">${contract.body || "No text yet."}</div></details>`;
  }
  const atBody = fieldMessage(saving.error, "body");
  const save = () => saving.run(async () => {
    await api.patch(`/contracts/${contract.id}`, { body: text });
    await done();
  });
  return html`<div class="field contract-edit">
    <label for=${id}>The contract's text</label>
    <textarea id=${id} rows="10" value=${text} onInput=${(event) => setText(event.currentTarget.value)}
      aria-invalid=${atBody ? "true" : null} aria-describedby=${atBody ? `${id}-error` : null} />
    ${atBody ? html`<p class="field-error" id=${`${id}-error`} role="alert">${atBody}</p>` : null}
    ${saving.error && !atBody ? html`<p class="error" role="alert">${saving.error.message}</p>` : null}
    <button type="button" onClick=${save} disabled=${saving.busy}>Save the text</button>
  </div>`;
}

/** A typed answer (the name signed with, the reason to void) and its button. */
function AskedOperation({ label, field, fieldLabel, path, done }) {
  const [value, setValue] = useState("");
  const id = `${path.replace(/\W/g, "-")}-${field}`;
  return html`<span class="asked-operation">
    <label for=${id}>${fieldLabel}</label>
    <input id=${id} type="text" value=${value} onInput=${(event) => setValue(event.currentTarget.value)} />
    <${Operation} label=${label} path=${path} body=${{ [field]: value }} done=${done} disabled=${!value.trim()} />
  </span>`;
}

export function Contract({ contract, canEdit, done }) {
  const path = (verb) => `/contracts/${contract.id}/${verb}`;
  const live = contract.status === "draft" || contract.status === "sent";
  return html`<article class="sales-document" aria-label=${documentName("contracts", contract)}>
    <${DocumentHead} collection="contracts" record=${contract}>
      <span class="quiet-text">${contract.signed_at ? `signed by ${contract.signed_name}, ${moment(contract.signed_at)}` : contract.sent_at ? `sent ${moment(contract.sent_at)}` : ""}</span>
    <//>
    ${contract.void_reason ? html`<p>Void: ${contract.void_reason}</p>` : null}
    <${ContractText} contract=${contract} editable=${canEdit && contract.status === "draft"} done=${done} />
    ${canEdit
      ? html`<div class="operations">
          ${contract.status === "draft" ? html`<${Operation} label="Send to the client" path=${path("send")} body=${{}} done=${done} />` : null}
          ${contract.status === "sent"
            ? html`<${AskedOperation} label="Signed on paper" field="signed_name" fieldLabel="Signed by" path=${path("sign-on-behalf")} done=${done} />`
            : null}
          ${live || contract.status === "signed"
            ? html`<${AskedOperation} label="Void" field="reason" fieldLabel="Why void it" path=${path("void")} done=${done} />`
            : null}
        </div>`
      : null}
  </article>`;
}
