// The gig page's Sales tab (SPEC §15), shown with sales.view, edited with sales.edit: the gig's quotes (lines edited
// in place while draft), its contracts and invoices with their payments, each PDF one click away, and the
// operations each status allows. Six calls, side by side: the three kinds of documents, the quotes' and invoices'
// lines and the payments, each filtered by the gig; every write reloads them all, and the gig.

import { ErrorMessage, Loading } from "../../components/index.js";
import { Operation } from "../../components/sales.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { Invoice } from "./sales_invoices.js";
import { Contract, Quote } from "./sales_quotes.js";

const ALL = { limit: 200, sort: "created_at" };

async function loadSales(api, gigId, signal) {
  const byGig = { ...ALL, "filter[gig_id]": gigId };
  const asked = [
    api.get("/quotes", byGig, { signal }),
    api.get("/quote-lines", { ...ALL, "filter[quote.gig_id]": gigId }, { signal }),
    api.get("/contracts", byGig, { signal }),
    api.get("/invoices", byGig, { signal }),
    api.get("/invoice-lines", { ...ALL, "filter[invoice.gig_id]": gigId }, { signal }),
    api.get("/payments", { limit: 200, sort: "received_on", "filter[invoice.gig_id]": gigId }, { signal }),
  ];
  const [quotes, quoteLines, contracts, invoices, invoiceLines, payments] = (await Promise.all(asked)).map((answer) => answer.data);
  return { quotes, quoteLines, contracts, invoices, invoiceLines, payments };
}

const of = (records, field, id) => records.filter((record) => record[field] === id);

function Section({ id, title, children, empty, actions }) {
  return html`<section class="sales-section" aria-labelledby=${id}>
    <h3 id=${id}>${title}</h3>
    ${empty ? html`<p class="quiet-text">${empty}</p>` : children}
    ${actions}
  </section>`;
}

export default function Sales({ gig, reload }) {
  const { api, me } = useConsole();
  const found = useLoad(({ signal }) => loadSales(api, gig.id, signal), [gig.id]);
  const canEdit = can(me, "sales.edit");
  const done = () => Promise.all([found.reload(), reload()]); // an operation may move the gig's status
  const sales = found.answer;
  return html`<section class="gig-sales" aria-labelledby="sales-heading">
    <h2 id="sales-heading">Sales</h2>
    <${ErrorMessage} error=${found.error} />
    ${!sales && !found.error ? html`<${Loading} />` : null}
    ${sales
      ? html`
          <${Section} id="sales-quotes" title="Quotes" empty=${sales.quotes.length === 0 ? "No quote yet." : null}
            actions=${canEdit ? html`<${Operation} label="New quote from the gig's products" path=${`/gigs/${gig.id}/quotes`} body=${{}} done=${done} />` : null}>
            ${sales.quotes.map((quote) => html`<${Quote} key=${quote.id} quote=${quote} lines=${of(sales.quoteLines, "quote_id", quote.id)} canEdit=${canEdit} done=${done} />`)}
          <//>
          <${Section} id="sales-contracts" title="Contract" empty=${sales.contracts.length === 0 ? "No contract yet." : null}>
            ${sales.contracts.map((contract) => html`<${Contract} key=${contract.id} contract=${contract} canEdit=${canEdit} done=${done} />`)}
          <//>
          <${Section} id="sales-invoices" title="Invoices" empty=${sales.invoices.length === 0 ? "No invoice yet." : null}>
            ${sales.invoices.map((invoice) => html`<${Invoice} key=${invoice.id} invoice=${invoice}
              lines=${of(sales.invoiceLines, "invoice_id", invoice.id)} payments=${of(sales.payments, "invoice_id", invoice.id)}
              canEdit=${canEdit} done=${done} />`)}
          <//>`
      : null}
  </section>`;
}
