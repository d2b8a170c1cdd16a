// The Sales tab's invoices (SPEC §15): each with its kind, number, status, due date, what is paid and open, its
// lines (edited while draft), its PDF and the operations its status allows (issue a draft; credit an issued one;
// record a payment received), and the payments it has had.

import { MoneyInput } from "../../components/money_input.js";
import { fieldMessage } from "../../components/save_error.js";
import { METHOD_WORDS, Operation, PdfButton, SalesStatus, documentName } from "../../components/sales.js";
import { useConsole } from "../../context.js";
import { date, isoDay, money } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { Lines } from "./sales_lines.js";

const PAYABLE = ["issued", "partly_paid"];

function Payments({ payments, currency }) {
  if (payments.length === 0) return null;
  return html`<ul class="sales-payments" aria-label="Payments">
    ${payments.map((payment) => html`<li key=${payment.id}>
      ${date(payment.received_on)} · ${money(payment.amount_cents, currency)} · ${METHOD_WORDS[payment.method] || payment.method}
      ${payment.reference ? ` · ${payment.reference}` : ""}
    </li>`)}
  </ul>`;
}

function RecordPayment({ invoice, done }) {
  const { api } = useConsole();
  const [cents, setCents] = useState(invoice.open_cents);
  const [receivedOn, setReceivedOn] = useState(isoDay(new Date()));
  const [method, setMethod] = useState("bank_transfer");
  const saving = useWrite();
  const id = (field) => `payment-${invoice.id}-${field}`;
  const said = (field) => fieldMessage(saving.error, field);
  const save = (event) => {
    event.preventDefault();
    saving.run(async () => {
      await api.post("/payments", { invoice_id: invoice.id, amount_cents: cents, received_on: receivedOn, method });
      await done();
    });
  };
  const error = (field) => (said(field) ? html`<span class="field-error" id=${`${id(field)}-error`} role="alert">${said(field)}</span>` : null);
  return html`<form class="record-payment" onSubmit=${save} aria-label=${`A payment for ${documentName("invoices", invoice)}`}>
    <span class="line-field"><label for=${id("amount")}>Amount received</label>
      <${MoneyInput} id=${id("amount")} cents=${cents} currency=${invoice.currency} onChange=${setCents}
        invalid=${Boolean(said("amount_cents"))} describedBy=${said("amount_cents") ? `${id("amount_cents")}-error` : null} />
      ${error("amount_cents")}</span>
    <span class="line-field"><label for=${id("on")}>Received on</label>
      <input id=${id("on")} type="date" value=${receivedOn} onInput=${(event) => setReceivedOn(event.currentTarget.value)} />
      ${error("received_on")}</span>
    <span class="line-field"><label for=${id("method")}>How</label>
      <select id=${id("method")} value=${method} onChange=${(event) => setMethod(event.currentTarget.value)}>
        ${Object.entries(METHOD_WORDS).map(([value, words]) => html`<option value=${value}>${words}</option>`)}
      </select></span>
    <button type="submit" disabled=${saving.busy}>Record the payment</button>
    ${saving.error && !said("amount_cents") && !said("received_on") ? html`<span class="error" role="alert">${saving.error.message}</span>` : null}
  </form>`;
}

export function Invoice({ invoice, lines, payments, canEdit, done }) {
  const path = (verb) => `/invoices/${invoice.id}/${verb}`;
  const payable = PAYABLE.includes(invoice.status);
  const credited = invoice.kind !== "credit_note" && (payable || invoice.status === "paid");
  return html`<article class="sales-document" aria-label=${documentName("invoices", invoice)}>
    <div class="sales-head">
      <h4>${documentName("invoices", invoice)}</h4>
      <${SalesStatus} status=${invoice.status} />
      <span class="quiet-text">${invoice.due_date ? `due ${date(invoice.due_date)}` : ""}${payable ? ` · open ${money(invoice.open_cents, invoice.currency)}` : ""}</span>
      <${PdfButton} collection="invoices" record=${invoice} />
    </div>
    <${Lines} document=${invoice} parent="invoice" lines=${lines} editable=${canEdit && invoice.status === "draft"} done=${done} />
    <${Payments} payments=${payments} currency=${invoice.currency} />
    ${canEdit
      ? html`<div class="operations">
          ${invoice.status === "draft" ? html`<${Operation} label="Issue" path=${path("issue")} body=${{}} done=${done} />` : null}
          ${credited ? html`<${Operation} label="Credit it" path=${path("credit")} body=${{}} done=${done} />` : null}
        </div>
        ${payable ? html`<${RecordPayment} invoice=${invoice} done=${done} />` : null}`
      : null}
  </article>`;
}
