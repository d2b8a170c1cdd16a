// The gig page's tabs (SPEC §12 screen 2), in the order they are shown: one line per tab.
//
// A tab is {id, label, load, shown}:
//   id     the value of ?tab= in the page's URL ("overview" when there is none)
//   label  the tab's name on the page
//   load   () => import("./<module>.js"): the tab's module, loaded when the tab is first opened
//   shown  (me) => boolean: whether this user sees the tab at all (what they cannot do is not shown)
//
// A tab module's default export is a Preact component given {gig, reload} (`api` and `me` from useConsole):
//   gig     the gig as GET /gigs/{id}?expand=gig_status,venue,gig_type,client_contact answers it (its `data`)
//   reload  () => Promise: refetches the gig (the page re-renders every tab with the new one); call it after a
//           change that alters the gig's own fields or its counts (status, open roles, pending invitations)
// A tab fetches what else it shows itself (its own collection, filtered by gig_id), renders an <h2> naming
// it, and keeps its own state in the URL's query only through ?tab= (the page owns that parameter).

import { can } from "../../me.js";

export const TABS = [
  { id: "overview", label: "Overview", load: () => import("./overview.js"), shown: () => true },
  { id: "run-sheet", label: "Run sheet", load: () => import("./run_sheet.js"), shown: (me) => can(me, "gigs.view") },
  { id: "staffing", label: "Staffing", load: () => import("./staffing.js"), shown: (me) => can(me, "staffing.view") },
  { id: "pay", label: "Pay", load: () => import("./pay.js"), shown: (me) => can(me, "pay.view") },
  { id: "sales", label: "Sales", load: () => import("./sales.js"), shown: (me) => can(me, "sales.view") },
  { id: "equipment", label: "Equipment", load: () => import("./equipment.js"), shown: (me) => can(me, "gigs.view") },
  { id: "files", label: "Files", load: () => import("./files.js"), shown: (me) => can(me, "gigs.view") },
  { id: "history", label: "History", load: () => import("./history.js"), shown: (me) => can(me, "gigs.view") },
];

/** The tabs this user sees. */
export function tabsFor(me) {
  return TABS.filter((tab) => tab.shown(me));
}
