// The gig page's History tab: GET /gigs/{id}/history (SPEC §8), newest first, a page at a time, each event in
// words (history_words.js) with when it happened. The records events name by id (the musician invited, the
// venue chosen) are asked for by id, one call per kind, so the sentences can name them.

import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { moment } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { useCurrency } from "./currency.js";
import { ago, eventWords } from "./history_words.js";

const PAGE = 25;
const REFERENCED = {
  staff_member_id: ["staff-members", (one) => `${one.first_name} ${one.last_name}`],
  product_id: ["products", (one) => one.name],
  contact_id: ["contacts", (one) => [one.first_name, one.last_name].filter(Boolean).join(" ")],
  equipment_id: ["equipment", (one) => one.name],
  role_id: ["roles", (one) => one.name],
  gig_status_id: ["gig-statuses", (one) => one.name],
  venue_id: ["venues", (one) => one.name],
  gig_type_id: ["gig-types", (one) => one.name],
  ensemble_id: ["ensembles", (one) => one.name],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function referencedIds(events) {
  const wanted = {};
  const add = (field, value) => {
    if (!REFERENCED[field] || typeof value !== "string" || !UUID.test(value)) return;
    (wanted[field] = wanted[field] || new Set()).add(value);
  };
  for (const event of events) {
    for (const [field, value] of Object.entries(event.data || {})) add(field, value);
    for (const [field, change] of Object.entries(event.changes || {})) {
      add(field, change.from);
      add(field, change.to);
    }
  }
  return wanted;
}

async function namesOf(api, events) {
  const asks = Object.entries(referencedIds(events)).map(async ([field, ids]) => {
    const [collection, text] = REFERENCED[field];
    try {
      const { data } = await api.get(`/${collection}`, { "filter[id][in]": [...ids].join(","), limit: 200 });
      return data.map((one) => [one.id, text(one)]);
    } catch {
      return []; // a collection this person may not read: the sentence says "a musician", "another"
    }
  });
  return Object.fromEntries((await Promise.all(asks)).flat());
}

async function customLabels(api) {
  const { data } = await api.get("/custom-fields", { "filter[resource]": "gigs", limit: 100, fields: "key,label" });
  return Object.fromEntries(data.map((one) => [one.key, one.label]));
}

async function pageOf(api, gigId, offset) {
  const { data, meta } = await api.get(`/gigs/${encodeURIComponent(gigId)}/history`, { limit: PAGE, offset });
  const [names, labels] = await Promise.all([namesOf(api, data), customLabels(api).catch(() => ({}))]);
  return { events: data, total: meta.total, names, labels };
}

function useHistory(gigId, offset) {
  const { api } = useConsole();
  const found = useLoad(() => pageOf(api, gigId, offset), [gigId, offset]);
  useFollow({ gig_id: gigId }, () => found.reload(), [gigId, offset]);
  return { page: found.answer, error: found.error };
}

export default function History({ gig }) {
  const { me } = useConsole();
  const [offset, setOffset] = useState(0);
  const currency = useCurrency();
  const { page, error } = useHistory(gig.id, offset);
  const context = page && { names: page.names, currency, customLabels: page.labels, seesPay: can(me, "pay.view") };
  return html`<div class="history">
    <h2>History</h2>
    ${error ? html`<p class="error" role="alert">${error.message}</p>` : null}
    ${page && page.events.length === 0 ? html`<p class="muted">Nothing has changed since the gig was made.</p>` : null}
    ${page && page.events.length > 0
      ? html`<ol class="history-list">
          ${page.events.map(
            (event) => html`<li key=${event.id}>
              <span class="history-words">${eventWords(event, context)}</span>
              <span class="muted"> · <time datetime=${event.occurred_at} title=${moment(event.occurred_at)}>${ago(event.occurred_at)}</time></span>
            </li>`,
          )}
        </ol>`
      : null}
    ${page && page.total > PAGE
      ? html`<nav class="pages" aria-label="Pages of the history">
          <button type="button" class="quiet" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
          <span>${offset + 1}–${Math.min(offset + PAGE, page.total)} of ${page.total}</span>
          <button type="button" class="quiet" disabled=${offset + PAGE >= page.total} onClick=${() => setOffset(offset + PAGE)}>Older</button>
        </nav>`
      : null}
  </div>`;
}
