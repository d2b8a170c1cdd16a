// The side menu: each entry shown only when GET /me says the user may use it (SPEC §12), with its
// keyboard shortcut ("g" then the key) where it has one; "My gigs" (SPEC §13) when the musician's own pages are
// the user's (`ownPages`: the shell works that out, shell.js useOwnPages). Records is the office's: a musician's
// `staff` role reads the catalogue (SPEC §3), which their own pages already show them where it matters (the role
// and product on a gig), so a user without office work sees My gigs alone.

import { can, canViewAny, doesOfficeWork } from "./me.js";
import { MY_HOME } from "./my_tabs.js";

export const MENU = [
  { label: "Agenda", path: "/agenda", key: "a", shown: (me) => can(me, "gigs.view") },
  { label: "Staffing", path: "/staffing", key: "s", shown: (me) => can(me, "staffing.view") },
  { label: "People", path: "/people", key: "p", shown: (me) => can(me, "people.view") },
  { label: "Pay", path: "/pay", shown: (me) => can(me, "pay.view") },
  { label: "Money", path: "/money", shown: (me) => can(me, "sales.view") },
  { label: "Records", path: "/records", shown: (me) => doesOfficeWork(me) && canViewAny(me) },
  // Admin's own links lead to these record pages: the menu shows Admin, not Records, there
  { label: "Admin", path: "/admin", also: ["/records/users", "/records/access-roles", "/records/webhook-deliveries"], shown: (me) => can(me, "admin.view") },
  { label: "My gigs", path: MY_HOME, key: "m", shown: (me, ownPages) => ownPages, own: true },
];

export function menuOf(me, ownPages = false) {
  return MENU.filter((entry) => entry.shown(me, ownPages));
}

/** Where "/" leads: a user without office work starts at their own gigs; the office at the agenda, else at the
 * first entry the user may use. */
export function homePath(me) {
  if (!doesOfficeWork(me)) return MY_HOME;
  const entries = menuOf(me);
  const first = entries.find((entry) => entry.path === "/agenda") || entries[0];
  return first ? first.path : null;
}

const under = (path, prefix) => path === prefix || path.startsWith(`${prefix}/`);

export function isCurrent(entry, path) {
  if ((entry.also || []).some((prefix) => under(path, prefix))) return true;
  return under(path, entry.path) && !MENU.some((other) => other !== entry && (other.also || []).some((prefix) => under(path, prefix)));
}
