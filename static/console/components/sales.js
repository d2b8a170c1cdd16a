// What the sales screens share (SPEC §15: the gig's Sales tab, Money, Admin's contract templates): the documents'
// statuses and kinds in words, the PDF of a quote, contract or invoice one click away, and an operation's button
// (POST /<collection>/{id}/<verb>) whose refusal is said in words beside it.
//
//   <${PdfButton} collection="invoices" record=${invoice} />
//   <${Operation} label="Send" path=${`/quotes/${id}/send`} done=${reload} />

import { download } from "../api.js";
import { useConsole } from "../context.js";
import { html } from "../lib.js";
import { useWrite } from "../load.js";

export const STATUS_WORDS = {
  draft: "draft",
  sent: "sent",
  accepted: "accepted",
  declined: "declined",
  expired: "expired",
  superseded: "superseded",
  signed: "signed",
  void: "void",
  issued: "issued",
  partly_paid: "partly paid",
  paid: "paid",
};

export const KIND_WORDS = { deposit: "Deposit", balance: "Balance", final: "Invoice", credit_note: "Credit note" };
export const METHOD_WORDS = { bank_transfer: "Bank transfer", cash: "Cash", card: "Card", other: "Other" };
const NOUNS = { quotes: "Quote", contracts: "Contract", invoices: "Invoice" };

/** "Quote Q-2027-0012", "Draft quote". */
export function documentName(collection, record) {
  const noun = collection === "invoices" ? KIND_WORDS[record.kind] || NOUNS.invoices : NOUNS[collection];
  return record.number ? `${noun} ${record.number}` : `Draft ${noun.toLowerCase()}`;
}

export function SalesStatus({ status }) {
  return html`<span class=${`sales-status sales-${status}`}>${STATUS_WORDS[status] || status}</span>`;
}

function Refusal({ error }) {
  return error ? html`<span class="error operation-error" role="alert">${error.message}</span>` : null;
}

/** A button that POSTs `body` to `path` and then calls `done()`; a refusal is said beside it. */
export function Operation({ label, path, body, done, disabled }) {
  const { api } = useConsole();
  const writing = useWrite();
  const run = () => writing.run(async () => {
    await api.post(path, body);
    await done();
  });
  return html`<span class="operation">
    <button type="button" disabled=${disabled || writing.busy} onClick=${run}>${label}</button>
    <${Refusal} error=${writing.error} />
  </span>`;
}

/** The document's PDF, fetched with the session and saved as "<number or draft>.pdf". */
export function PdfButton({ collection, record }) {
  const writing = useWrite();
  const name = `${(record.number || `draft-${record.id.slice(0, 8)}`).replace(/[^\w.-]/g, "_")}.pdf`;
  const fetchPdf = () => writing.run(() => download(`/${collection}/${record.id}/pdf`, name));
  return html`<span class="operation">
    <button type="button" class="pdf" disabled=${writing.busy} onClick=${fetchPdf}
      aria-label=${`PDF of ${documentName(collection, record)}`}>PDF</button>
    <${Refusal} error=${writing.error} />
  </span>`;
}
