// The agenda's state is its URL (SPEC §12: every screen has its URL): which gigs it shows and how, read from the
// query string and written back into it, and the one GET /gigs that asks for them.
//
//   /agenda?month=2026-11&view=grid&status=<gig status id>&type=<gig type id>&q=hofer&open=1
//   /agenda?kind=confirmed          every status of a kind (a link's, the filter offers the statuses)
//   /agenda?days=30&open=1          the next 30 days from today (with open roles only)

import { isoDay, monthBounds, thisMonth } from "../../format.js";

export const KINDS = ["inquiry", "tentative", "confirmed", "completed", "cancelled"];
export const PAGE_SIZE = 200; // the API's largest page: a month of a busy office is shown a page at a time
const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAYS_RE = /^([1-9]|[1-9]\d)$/; // a range of 1 to 99 days from today
const FIELDS = [
  "id",
  "gig_date",
  "title",
  "start_time",
  "end_time",
  "gig_status",
  "venue",
  "role_count",
  "open_role_count",
  "pending_invitation_count",
];
// SPEC §15's badges, for a user with sales.view (the API has no such fields for anyone else)
const SALES_FIELDS = ["quote_status", "contract_status", "deposit_overdue"];

/** The agenda's settings from the URL's query, each checked (anything else is the default). */
export function agendaOf(query) {
  const days = DAYS_RE.test(query.days || "") ? Number(query.days) : null;
  return {
    month: MONTH_RE.test(query.month || "") ? query.month : thisMonth(),
    days,
    view: query.view === "grid" && !days ? "grid" : "list",
    kind: KINDS.includes(query.kind) ? query.kind : "",
    status: query.status || "",
    type: query.type || "",
    q: (query.q || "").slice(0, 200),
    open: query.open === "1",
  };
}

/** The agenda's URL with `changes` made to `agenda` (defaults left out, so the plain agenda is "/agenda"). */
export function agendaUrl(agenda, changes = {}) {
  const next = { ...agenda, ...changes };
  const params = new URLSearchParams();
  if (next.days) params.set("days", String(next.days));
  else if (next.month !== thisMonth()) params.set("month", next.month);
  if (next.view === "grid" && !next.days) params.set("view", "grid");
  if (next.kind) params.set("kind", next.kind);
  if (next.status) params.set("status", next.status);
  if (next.type) params.set("type", next.type);
  if (next.q) params.set("q", next.q);
  if (next.open) params.set("open", "1");
  const search = params.toString();
  return `/agenda${search ? `?${search}` : ""}`;
}

/** [first, last] day shown: the month, or today and the days after it. */
export function rangeOf(agenda) {
  if (!agenda.days) return monthBounds(agenda.month);
  const today = new Date();
  const last = new Date(today.getFullYear(), today.getMonth(), today.getDate() + agenda.days - 1);
  return [isoDay(today), isoDay(last)];
}

/** The query of GET /gigs for the agenda's page starting at `offset`: one call brings each gig with its status,
 * venue and counts (expand, fields; the sales ones `withSales`), sorted by day and time. */
export function gigsQuery(agenda, offset = 0, withSales = false) {
  const [first, last] = rangeOf(agenda);
  return {
    "filter[gig_date][gte]": first,
    "filter[gig_date][lte]": last,
    "filter[gig_status.kind]": agenda.kind || null,
    "filter[gig_status_id]": agenda.status || null,
    "filter[gig_type_id]": agenda.type || null,
    "filter[open_role_count][gt]": agenda.open ? 0 : null,
    q: agenda.q || null,
    sort: "gig_date,start_time,title",
    expand: "gig_status,venue",
    fields: (withSales ? [...FIELDS, ...SALES_FIELDS] : FIELDS).join(","),
    limit: PAGE_SIZE,
    offset: offset || null,
  };
}
