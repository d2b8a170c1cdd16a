// Paging links for a list shown a page at a time: "Previous" and "Next" as links to the same screen with another
// offset in its query string (so a page of a list has its own URL), and where the page is in the whole.

import { html } from "../lib.js";

/** The screen's path with `query` changed by `changes` (a null value removes the parameter). */
export function withQuery(path, query, changes) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes })) {
    if (value !== null && value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The offset a query string's text names (?offset=40), 0 when it names none. */
export function offsetOf(text) {
  const number = Number(text);
  return Number.isInteger(number) && number > 0 ? number : 0;
}

/** {meta: {total, limit, offset}} -> "21–40 of 57" with the links; `parameter` names the offset in the query. */
export function Pager({ meta, path, query, parameter = "offset", label }) {
  if (!meta || meta.total <= meta.limit) return null;
  const { total, limit, offset } = meta;
  const last = Math.min(offset + limit, total);
  const before = offset > 0 ? withQuery(path, query, { [parameter]: Math.max(offset - limit, 0) || null }) : null;
  const after = last < total ? withQuery(path, query, { [parameter]: last }) : null;
  return html`<nav class="pager" aria-label=${`Pages of ${label}`}>
    ${before ? html`<a href=${before}>Previous</a>` : null}
    <span>${offset + 1}–${last} of ${total}</span>
    ${after ? html`<a href=${after}>Next</a>` : null}
  </nav>`;
}
