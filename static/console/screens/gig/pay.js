// The gig page's Pay tab (SPEC §12 screen 2, §5.5), shown only with pay.view: what each gig role pays, where
// the amount comes from in words, and the total. Two calls: the pay sheet and the roles it names.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { money } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";

const SOURCE_WORDS = {
  gig_role: "set on this gig",
  staff_member_product_rate: "the member's rate for the product",
  rate: "the role's rate for the product",
  role_default_rate: "the role's default rate",
  none: "no rate found",
};

async function loadPay(api, gig) {
  const [sheet, roles] = await Promise.all([
    api.get(`/gigs/${gig.id}/pay-sheet`, { limit: 200 }),
    api.get("/gig-roles", { "filter[gig_id]": gig.id, expand: "role,staff_member", fields: "id,role,staff_member", limit: 200 }),
  ]);
  return { sheet, roles: Object.fromEntries(roles.data.map((role) => [role.id, role])) };
}

function PayLine({ line, role, currency }) {
  const member = role && role.staff_member;
  return html`<tr>
    <td>${role && role.role ? role.role.name : ""}</td>
    <td>${member ? `${member.first_name} ${member.last_name}` : html`<span class="quiet-text">open</span>`}</td>
    <td class="amount">${line.amount_cents === null ? "—" : money(line.amount_cents, currency)}</td>
    <td>${SOURCE_WORDS[line.source] || line.source}</td>
  </tr>`;
}

export default function Pay({ gig }) {
  const { api } = useConsole();
  const { answer: data, error } = useLoad(() => loadPay(api, gig), [gig.id]);
  const currency = data && data.sheet.meta.currency;
  return html`<section class="gig-pay" aria-labelledby="pay-heading">
    <h2 id="pay-heading">Pay</h2>
    <${ErrorMessage} error=${error} />
    ${!data && !error ? html`<${Loading} />` : null}
    ${data && data.sheet.data.length === 0 ? html`<p>No roles, so nothing to pay yet.</p>` : null}
    ${data && data.sheet.data.length > 0
      ? html`<table class="pay-sheet">
          <caption class="visually-hidden">What each role of this gig pays</caption>
          <thead><tr><th scope="col">Role</th><th scope="col">Member</th><th scope="col" class="amount">Pay</th><th scope="col">From</th></tr></thead>
          <tbody>
            ${data.sheet.data.map((line) => html`<${PayLine} key=${line.gig_role_id} line=${line} role=${data.roles[line.gig_role_id]} currency=${currency} />`)}
          </tbody>
          <tfoot><tr><th scope="row" colspan="2">Total</th><td class="amount">${money(data.sheet.meta.total_cents, currency)}</td><td></td></tr></tfoot>
        </table>`
      : null}
  </section>`;
}
