// A musician's own pay (SPEC §10, §13; /my/pay): their pay sheet for a period (?from=&to=, last month by default,
// ?offset= pages it), one line per gig role they filled: the date, the gig (a link to their page of it), the role,
// the amount in the office's currency with where it comes from in words, and the period's total. Two calls: the
// pay sheet, then their gigs of its lines (the gig's title and the role's name).

import { ErrorMessage, Loading } from "../../components/index.js";
import { Pager, offsetOf } from "../../components/paging.js";
import { PeriodHeader, periodOf } from "../../components/period.js";
import { useConsole } from "../../context.js";
import { date, money } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { myGigPath } from "../../paths.js";

const PAGE = 100;

// Where an amount comes from (§5.5), said to the musician it pays.
const SOURCES = {
  gig_role: "agreed for this gig",
  staff_member_product_rate: "your own rate",
  rate: "the band's rate for the role",
  role_default_rate: "the role's usual rate",
  none: "no pay agreed: ask the office",
};

async function sheetOf(api, from, to, offset) {
  const sheet = await api.get("/me/pay-sheet", { from, to, limit: PAGE, offset });
  const gigIds = [...new Set(sheet.data.map((line) => line.gig_id))];
  const gigs = gigIds.length
    ? await api.get("/me/gigs", { "filter[id][in]": gigIds.join(","), fields: "id,title,roles", limit: PAGE })
    : { data: [] };
  return { sheet, gigs: Object.fromEntries(gigs.data.map((gig) => [gig.id, gig])) };
}

/** "Lead vocals · Reception": the role and what it plays, as the gig lists it. */
function roleWords(gig, gigRoleId) {
  const role = gig && (gig.roles || []).find((one) => one.gig_role_id === gigRoleId);
  if (!role) return "";
  return [role.role, role.product && role.product.name].filter(Boolean).join(" · ");
}

function Line({ line, gig, currency }) {
  return html`<li class="my-pay-line">
    <div class="my-pay-row">
      <span class="gig-date">${date(line.gig_date)}</span>
      <span class="amount">${line.amount_cents === null ? "—" : money(line.amount_cents, currency)}</span>
    </div>
    <a href=${myGigPath(line.gig_id)}>${gig ? gig.title : "Your gig"}</a>
    <div class="my-pay-row muted">
      <span class="role">${roleWords(gig, line.gig_role_id)}</span>
      <span class="source">${SOURCES[line.source] || line.source}</span>
    </div>
  </li>`;
}

function Sheet({ answer, from, to, query }) {
  const { sheet, gigs } = answer;
  const { meta } = sheet;
  const gigCount = meta.total === 1 ? "1 gig role" : `${meta.total} gig roles`;
  return html`<p class="my-pay-total">
      <span>${gigCount}</span>
      <span>Total <strong class="sheet-total">${money(meta.total_cents, meta.currency)}</strong></span>
    </p>
    <ul class="my-pay-lines" aria-label=${`Your pay from ${date(from)} to ${date(to)}`}>
      ${sheet.data.map((line) => html`<${Line} key=${line.gig_role_id} line=${line} gig=${gigs[line.gig_id]} currency=${meta.currency} />`)}
    </ul>
    <${Pager} meta=${meta} path="/my/pay" query=${{ ...query, from, to }} label="your pay" />
    <p class="actions no-print"><button type="button" class="quiet" onClick=${() => print()}>Print</button></p>`;
}

/** The sheet of one period and page: drawn anew (under its key) when the address names another. */
function PeriodSheet({ from, to, offset, query }) {
  const { api } = useConsole();
  const { answer, error } = useLoad(() => sheetOf(api, from, to, offset), [from, to, offset]);
  return html`<${ErrorMessage} error=${error} />
    ${!answer && !error ? html`<${Loading} />` : null}
    ${answer && answer.sheet.meta.total === 0
      ? html`<p class="my-empty">You played no gigs in this period: nothing to be paid.</p>`
      : null}
    ${answer && answer.sheet.meta.total > 0 ? html`<${Sheet} answer=${answer} from=${from} to=${to} query=${query} />` : null}`;
}

export default function MyPay({ query }) {
  const [from, to] = periodOf(query);
  const offset = offsetOf(query.offset);
  return html`<section class="screen my-pay">
    <${PeriodHeader} title="My pay" path="/my/pay" from=${from} to=${to} />
    <${PeriodSheet} key=${`${from}/${to}/${offset}`} from=${from} to=${to} offset=${offset} query=${query} />
  </section>`;
}
