// Money (SPEC §15, sales.view): what the office awaits and what came in. The open invoices (issued or partly paid),
// the overdue ones marked, with the totals open and overdue per currency; then the payments received in a period
// (?from=&to=, this month by default); each list downloadable as the CSV of what is shown. A row leads to its
// gig's Sales tab. Three calls: the open invoices, which of them are overdue (the API's `overdue=true`, by the
// office's today) and the period's payments.

import { csvText, download } from "../../components/csv.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { PeriodHeader, monthPeriod } from "../../components/period.js";
import { KIND_WORDS, METHOD_WORDS, SalesStatus, documentName } from "../../components/sales.js";
import { useConsole } from "../../context.js";
import { date, money } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { MONEY_PATH, gigPath } from "../../paths.js";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const LIMIT = 200;

function periodOf(query) {
  return DATE_RE.test(query.from || "") && DATE_RE.test(query.to || "") ? [query.from, query.to] : monthPeriod(0);
}

async function loadMoney(api, from, to, signal) {
  const open = { "filter[status][in]": "issued,partly_paid", "filter[kind][ne]": "credit_note", limit: LIMIT };
  const [invoices, overdue, payments] = await Promise.all([
    api.get("/invoices", { ...open, expand: "gig", sort: "due_date" }, { signal }),
    api.get("/invoices", { overdue: "true", "filter[kind][ne]": "credit_note", fields: "id", limit: LIMIT }, { signal }),
    api.get("/payments", { "filter[received_on][gte]": from, "filter[received_on][lte]": to, expand: "invoice", sort: "received_on", limit: LIMIT }, { signal }),
  ]);
  const late = new Set(overdue.data.map((invoice) => invoice.id));
  return { invoices: invoices.data.map((invoice) => ({ ...invoice, overdue: late.has(invoice.id) })), payments: payments.data, more: invoices.meta.total > LIMIT || payments.meta.total > LIMIT };
}

/** {currency: cents} of `records`' `field`. */
function perCurrency(records, field, currencyOf = (record) => record.currency) {
  const sums = {};
  for (const record of records) sums[currencyOf(record)] = (sums[currencyOf(record)] || 0) + record[field];
  return Object.entries(sums).sort(([one], [other]) => one.localeCompare(other));
}

function Totals({ invoices }) {
  const late = invoices.filter((invoice) => invoice.overdue);
  const line = (label, records) => html`<div><dt>${label}</dt><dd>${records.length === 0 ? money(0) : perCurrency(records, "open_cents").map(([currency, cents]) => html`<span class="amount-per-currency">${money(cents, currency)}</span>`)}</dd></div>`;
  return html`<dl class="money-totals">${line("Open", invoices)}${line("Overdue", late)}</dl>`;
}

const gigTitle = (record) => (record.gig ? record.gig.title : "");

function invoiceRows(invoices) {
  const header = ["Invoice", "Kind", "Gig", "Due", "Status", "Open", "Total", "Currency"];
  const amount = (cents) => (cents / 100).toFixed(2);
  return [header, ...invoices.map((invoice) => [invoice.number, KIND_WORDS[invoice.kind], gigTitle(invoice), invoice.due_date, invoice.overdue ? "overdue" : invoice.status, amount(invoice.open_cents), amount(invoice.gross_cents), invoice.currency])];
}

function paymentRows(payments) {
  const header = ["Received on", "Amount", "Currency", "Invoice", "How", "Reference"];
  return [header, ...payments.map((payment) => [payment.received_on, (payment.amount_cents / 100).toFixed(2), payment.invoice ? payment.invoice.currency : "", payment.invoice ? payment.invoice.number : "", METHOD_WORDS[payment.method], payment.reference])];
}

function OpenInvoices({ invoices }) {
  if (invoices.length === 0) return html`<p>No invoice is open.</p>`;
  return html`<table class="money-table">
    <caption class="visually-hidden">Open invoices, the earliest due first</caption>
    <thead><tr><th scope="col">Invoice and gig</th><th scope="col">Due</th><th scope="col">Status</th><th scope="col" class="amount">Open</th></tr></thead>
    <tbody>${invoices.map((invoice) => html`<tr key=${invoice.id} class=${invoice.overdue ? "overdue" : null}>
      <td><a href=${gigPath(invoice.gig_id, "sales")}>${documentName("invoices", invoice)}</a><span class="money-gig">${gigTitle(invoice)}</span></td>
      <td>${date(invoice.due_date)}</td>
      <td>${invoice.overdue ? html`<span class="sales-status sales-overdue">overdue</span>` : html`<${SalesStatus} status=${invoice.status} />`}</td>
      <td class="amount">${money(invoice.open_cents, invoice.currency)}</td>
    </tr>`)}</tbody>
  </table>`;
}

function Payments({ payments }) {
  if (payments.length === 0) return html`<p>No payment came in in this period.</p>`;
  return html`<table class="money-table">
    <caption class="visually-hidden">Payments received in the period</caption>
    <thead><tr><th scope="col">Received</th><th scope="col">Invoice</th><th scope="col">How</th><th scope="col" class="amount">Amount</th></tr></thead>
    <tbody>${payments.map((payment) => html`<tr key=${payment.id}>
      <td>${date(payment.received_on)}</td>
      <td>${payment.invoice ? html`<a href=${gigPath(payment.invoice.gig_id, "sales")}>${documentName("invoices", payment.invoice)}</a>` : ""}</td>
      <td>${METHOD_WORDS[payment.method] || payment.method}</td>
      <td class="amount">${money(payment.amount_cents, payment.invoice ? payment.invoice.currency : undefined)}</td>
    </tr>`)}</tbody>
    <tfoot><tr><th scope="row" colspan="3">Received</th><td class="amount">${perCurrency(payments, "amount_cents", (payment) => (payment.invoice ? payment.invoice.currency : "")).map(([currency, cents]) => html`<span class="amount-per-currency">${money(cents, currency || undefined)}</span>`)}</td></tr></tfoot>
  </table>`;
}

export default function Money({ query }) {
  const { api } = useConsole();
  const [from, to] = periodOf(query);
  const found = useLoad(({ signal }) => loadMoney(api, from, to, signal), [from, to]);
  const shown = found.answer;
  return html`<section class="screen money">
    <${PeriodHeader} title="Money" path=${MONEY_PATH} from=${from} to=${to} />
    <${ErrorMessage} error=${found.error} />
    ${!shown && !found.error ? html`<${Loading} />` : null}
    ${shown
      ? html`<section aria-labelledby="money-open">
            <h2 id="money-open">Open invoices</h2>
            <${Totals} invoices=${shown.invoices} />
            <${OpenInvoices} invoices=${shown.invoices} />
            <button type="button" onClick=${() => download(csvText(invoiceRows(shown.invoices)), "open-invoices.csv")}>Download the open invoices (CSV)</button>
          </section>
          <section aria-labelledby="money-payments">
            <h2 id="money-payments">Payments received</h2>
            <${Payments} payments=${shown.payments} />
            <button type="button" onClick=${() => download(csvText(paymentRows(shown.payments)), `payments-${from}-to-${to}.csv`)}>Download the payments (CSV)</button>
          </section>
          ${shown.more ? html`<p class="quiet-text">The first ${LIMIT} of each are shown.</p>` : null}`
      : null}
  </section>`;
}
