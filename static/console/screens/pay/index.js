// Pay (SPEC §12, screen 5; pay.view): the period's pay sheet per staff member with their totals (?from=&to=, last
// month by default; ?offset= pages it), a member's gigs in the period (?member=<id>), a print stylesheet that
// prints the sheet alone, and the whole sheet as a CSV made here from the JSON.

import { ErrorMessage, Loading } from "../../components/index.js";
import { Pager, offsetOf, withQuery } from "../../components/paging.js";
import { PeriodHeader, periodOf } from "../../components/period.js";
import { useConsole } from "../../context.js";
import { date, money } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { downloadSheet } from "./csv.js";
import { MemberLines } from "./member_lines.js";

export const PAGE = 100;

export function memberName(line) {
  return [line.first_name, line.last_name].filter(Boolean).join(" ");
}

function SheetRow({ line, currency, query, open, from, to }) {
  const link = withQuery("/pay", query, { member: open ? null : line.staff_member_id });
  return html`<tr class=${open ? "open" : ""}>
      <th scope="row">${memberName(line)}</th>
      <td class="number">${line.gigs}</td>
      <td class="number amount">${money(line.total_cents, currency)}</td>
      <td class="no-print"><a href=${link} aria-expanded=${open ? "true" : "false"}
        aria-label=${`${open ? "Hide" : "Show"} the gigs of ${memberName(line)}`}>${open ? "Hide gigs" : "Gigs"}</a></td>
    </tr>
    ${open ? html`<tr class="lines"><td colspan="4"><${MemberLines} member=${line} from=${from} to=${to} /></td></tr>` : null}`;
}

function Sheet({ answer, query, from, to }) {
  const { data, meta } = answer;
  const currency = meta.currency;
  const sum = data.reduce((total, line) => total + line.total_cents, 0);
  const whole = meta.total <= data.length;
  return html`<div class="table-wrap"><table class="period-pay-sheet">
    <caption class="visually-hidden">Pay per staff member, ${date(from)} to ${date(to)}</caption>
    <thead><tr><th scope="col">Staff member</th><th scope="col" class="number">Gigs</th>
      <th scope="col" class="number">Total</th><th scope="col" class="no-print"><span class="visually-hidden">Details</span></th></tr></thead>
    <tbody>
      ${data.map(
        (line) => html`<${SheetRow} key=${line.staff_member_id} line=${line} currency=${currency} query=${query}
          open=${query.member === line.staff_member_id} from=${from} to=${to} />`,
      )}
    </tbody>
    <tfoot><tr><th scope="row">${whole ? "Total" : "Total of this page"}</th>
      <td></td>
      <td class="number amount sheet-total">${money(sum, currency)}</td><td class="no-print"></td></tr></tfoot>
  </table></div>`;
}

export default function Pay({ query }) {
  const { api } = useConsole();
  const [from, to] = periodOf(query);
  const offset = offsetOf(query.offset);
  const downloading = useWrite();
  const { answer, error } = useLoad(() => api.get("/pay-sheet", { from, to, limit: PAGE, offset }), [from, to, offset], { fresh: true });
  const shownQuery = { ...query, from, to };
  return html`<section class="screen pay">
    <${PeriodHeader} title="Pay sheet" path="/pay" from=${from} to=${to} />
    <${ErrorMessage} error=${error || downloading.error} />
    ${!answer && !error ? html`<${Loading} />` : null}
    ${answer && answer.data.length === 0 ? html`<p>Nobody played a gig in this period.</p>` : null}
    ${answer && answer.data.length > 0
      ? html`<p class="actions no-print">
            <button type="button" onClick=${() => downloading.run(() => downloadSheet(api, from, to))}>Download CSV</button>
            <button type="button" class="quiet" onClick=${() => print()}>Print</button>
          </p>
          <${Sheet} answer=${answer} query=${shownQuery} from=${from} to=${to} />
          <${Pager} meta=${answer.meta} path="/pay" query=${shownQuery} label="the pay sheet" />`
      : null}
  </section>`;
}
