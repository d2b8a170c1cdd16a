// What the gig page's staffing tab shows, in at most four calls: the gig's roles (with their role and member),
// its products (for their names), its pending invitations and, with pay.view, its pay sheet (§5.5).

import { can } from "../../me.js";

const LIMIT = 200;

function payOf(api, gig, me) {
  if (!can(me, "pay.view")) return Promise.resolve(null);
  return api.get(`/gigs/${gig.id}/pay-sheet`, { limit: LIMIT });
}

/** {roles, products, invitations, pay} of the gig: pay is null without pay.view. */
export async function loadStaffing(api, gig, me) {
  const [roles, products, invitations, pay] = await Promise.all([
    api.get("/gig-roles", { "filter[gig_id]": gig.id, expand: "role,staff_member", sort: "role.position,role.name", limit: LIMIT }),
    api.get("/gig-products", { "filter[gig_id]": gig.id, expand: "product", fields: "id,product,position", limit: LIMIT }),
    api.get("/gig-role-invitations", {
      "filter[gig_role.gig_id]": gig.id,
      "filter[status]": "pending",
      expand: "staff_member",
      sort: "expires_at",
      limit: LIMIT,
    }),
    payOf(api, gig, me),
  ]);
  return { roles: roles.data, products: products.data, invitations: invitations.data, pay };
}

/** The gig's roles grouped by product, in the products' order, then those of no product: [{key, name, roles}]. */
export function rolesByProduct(roles, products) {
  const groups = products.map((product) => ({ key: product.id, name: product.product ? product.product.name : "Product", roles: [] }));
  const other = { key: "other", name: "Other roles", roles: [] };
  const byId = Object.fromEntries(groups.map((group) => [group.key, group]));
  for (const role of roles) (byId[role.gig_product_id] || other).roles.push(role);
  return [...groups, other].filter((group) => group.roles.length > 0);
}

/** gig role id -> what it pays, from the pay sheet (null without pay.view). */
export function payByRole(pay) {
  return pay ? Object.fromEntries(pay.data.map((line) => [line.gig_role_id, line.amount_cents])) : {};
}

/** "7 roles made: 2 × Violin, Drums, …" from the generated roles and the names of every role of the gig. */
export function generatedWords(created, roles) {
  if (created.length === 0) return "No roles to make: every product's ensemble already has its roles.";
  const names = Object.fromEntries(roles.map((role) => [role.role_id, role.role ? role.role.name : ""]));
  const counts = new Map();
  for (const role of created) counts.set(names[role.role_id], (counts.get(names[role.role_id]) || 0) + 1);
  const listed = [...counts].map(([name, count]) => (count > 1 ? `${count} × ${name}` : name)).join(", ");
  return `${created.length === 1 ? "1 role" : `${created.length} roles`} made: ${listed}.`;
}
