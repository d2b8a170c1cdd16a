// The side menu: each entry shown only when GET /me says the user may use it (SPEC §12), with its
// keyboard shortcut ("g" then the key) where it has one.

import { can, canViewAny } from "./me.js";

export const MENU = [
  { label: "Agenda", path: "/agenda", key: "a", shown: (me) => can(me, "gigs.view") },
  { label: "Staffing", path: "/staffing", key: "s", shown: (me) => can(me, "staffing.view") },
  { label: "People", path: "/people", key: "p", shown: (me) => can(me, "people.view") },
  { label: "Pay", path: "/pay", shown: (me) => can(me, "pay.view") },
  { label: "Records", path: "/records", shown: canViewAny },
  { label: "Admin", path: "/admin", shown: (me) => can(me, "admin.view") },
];

export function menuOf(me) {
  return MENU.filter((entry) => entry.shown(me));
}

/** Where "/" leads: the agenda for the office, else the first entry the user may use. */
export function homePath(me) {
  const entries = menuOf(me);
  const first = entries.find((entry) => entry.path === "/agenda") || entries[0];
  return first ? first.path : null;
}

export function isCurrent(entry, path) {
  return path === entry.path || path.startsWith(`${entry.path}/`);
}
