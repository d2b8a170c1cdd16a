// A staff member's gigs in the pay sheet's period (the drill-down of the Pay screen): their lines of the period's
// pay sheet (GET /staff-members/{id}/pay-sheet), each with its gig's title and the role's name, and the amount.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { date, money } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { recordPath } from "../../paths.js";

const SOURCES = {
  gig_role: "set on the gig",
  staff_member_product_rate: "their own rate",
  rate: "the role's rate for the product",
  role_default_rate: "the role's default rate",
  none: "no rate",
};

async function linesOf(api, memberId, from, to) {
  const sheet = await api.get(`/staff-members/${encodeURIComponent(memberId)}/pay-sheet`, { from, to, limit: 200 });
  const gigIds = [...new Set(sheet.data.map((line) => line.gig_id))].slice(0, 100);
  const roleIds = [...new Set(sheet.data.map((line) => line.role_id))].slice(0, 100);
  const [gigs, roles] = await Promise.all([
    gigIds.length ? api.get("/gigs", { "filter[id][in]": gigIds.join(","), fields: "id,title", limit: 100 }) : { data: [] },
    roleIds.length ? api.get("/roles", { "filter[id][in]": roleIds.join(","), fields: "id,name", limit: 100 }) : { data: [] },
  ]);
  const byId = (answer) => Object.fromEntries(answer.data.map((record) => [record.id, record]));
  return { sheet, gigs: byId(gigs), roles: byId(roles) };
}

export function MemberLines({ member, from, to }) {
  const { api } = useConsole();
  const { answer, error } = useLoad(() => linesOf(api, member.staff_member_id, from, to), [member.staff_member_id, from, to], {
    fresh: true,
  });
  if (error) return html`<${ErrorMessage} error=${error} />`;
  if (!answer) return html`<${Loading} />`;
  const currency = answer.sheet.meta.currency;
  return html`<ul class="pay-lines" aria-label=${`Gigs of ${member.first_name} ${member.last_name}`}>
    ${answer.sheet.data.map((line) => {
      const gig = answer.gigs[line.gig_id];
      const role = answer.roles[line.role_id];
      return html`<li key=${line.gig_role_id}>
        <span class="gig-date">${date(line.gig_date)}</span>
        <a href=${recordPath("gigs", line.gig_id)}>${gig ? gig.title : "A gig"}</a>
        <span class="muted">${role ? role.name : ""}</span>
        <span class="amount">${line.amount_cents === null ? "no amount" : money(line.amount_cents, currency)}</span>
        <span class="muted source">${SOURCES[line.source] || line.source}</span>
      </li>`;
    })}
  </ul>`;
}
