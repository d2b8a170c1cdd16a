// Where a record is shown in the console: the one place that turns a collection and an id into a path, for
// search hits, links between screens and the events a screen follows.

const SHOWN_AT = {
  gigs: (id) => `/gigs/${id}`,
  "staff-members": (id) => `/people/staff-members/${id}`,
  contacts: (id) => `/people/contacts/${id}`,
};

export function recordPath(collection, id) {
  const shown = SHOWN_AT[collection];
  return shown ? shown(encodeURIComponent(id)) : formPath(collection, id);
}

/** A collection's list among the generic pages (SPEC §12, screen 6), `query` its filters ({"filter[x][eq]": id}). */
export function listPath(collection, query = {}) {
  const search = Object.entries(query).map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join("&");
  return `/records/${collection}${search ? `?${search}` : ""}`;
}

/** A record's form among the generic pages, whatever screen it is otherwise shown on. */
export function formPath(collection, id) {
  return `${listPath(collection)}/${encodeURIComponent(id)}`;
}

/** A webhook endpoint's page, with its delivery log. */
export function webhookPath(id) {
  return `/admin/webhooks/${encodeURIComponent(id)}`;
}

/** A gig's page at one of its tabs (tabs.js: "overview" is the page's own address). */
export function gigPath(gigId, tab = "overview") {
  return tab === "overview" ? recordPath("gigs", gigId) : `${recordPath("gigs", gigId)}?tab=${encodeURIComponent(tab)}`;
}

/** The staffing of a gig: its page's staffing tab. */
export function staffingPath(gigId) {
  return gigPath(gigId, "staffing");
}

/** The agenda at the month "2026-11". */
export function agendaMonthPath(month) {
  return `/agenda?month=${month}`;
}

/** A gig as the musician who plays it reads it (their own pages, /my). */
export function myGigPath(gigId) {
  return `/my/gigs/${encodeURIComponent(gigId)}`;
}

/** An invitation as the musician invited reads and answers it (their own pages, /my). */
export function myInvitationPath(invitationId) {
  return `/my/invitations/${encodeURIComponent(invitationId)}`;
}

/** Admin's contract templates; with an id ("new" for a new one), that template's editor. */
export function contractTemplatePath(id) {
  return id ? `/admin/contract-templates/${encodeURIComponent(id)}` : "/admin/contract-templates";
}

/** The Money screen (open invoices and the payments of a period). */
export const MONEY_PATH = "/money";
