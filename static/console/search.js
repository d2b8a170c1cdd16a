// The search box of the top bar: `q` asked of gigs, staff members, contacts and venues at once (those the
// user may view), the hits listed by kind, each a link to its record.

import { useConsole } from "./context.js";
import { date } from "./format.js";
import { html, useState } from "./lib.js";
import { useLoad } from "./load.js";
import { can } from "./me.js";
import { recordPath } from "./paths.js";

const HITS_PER_KIND = 5;
const DEBOUNCE_MS = 250;

const KINDS = [
  {
    label: "Gigs",
    collection: "gigs",
    capability: "gigs.view",
    fields: "id,gig_date,title",
    text: (gig) => `${date(gig.gig_date)} · ${gig.title}`,
  },
  {
    label: "Staff members",
    collection: "staff-members",
    capability: "people.view",
    fields: "id,first_name,last_name",
    text: (member) => `${member.first_name} ${member.last_name}`,
  },
  {
    label: "Contacts",
    collection: "contacts",
    capability: "people.view",
    fields: "id,first_name,last_name,company",
    text: (contact) => [`${contact.first_name} ${contact.last_name || ""}`.trim(), contact.company].filter(Boolean).join(" · "),
  },
  {
    label: "Venues",
    collection: "venues",
    capability: "gigs.view",
    fields: "id,name,city",
    text: (venue) => [venue.name, venue.city].filter(Boolean).join(", "),
  },
];

/** The words the API will search for (each at least 2 characters, at most 8 of them), or "". */
export function searchable(text) {
  return text.split(/\s+/).filter((word) => word.length >= 2).slice(0, 8).join(" ");
}

async function searchAll(api, kinds, q, signal) {
  const query = (kind) => ({ q, fields: kind.fields, limit: HITS_PER_KIND });
  const answers = await Promise.all(kinds.map((kind) => api.get(`/${kind.collection}`, query(kind), { signal })));
  return kinds.map((kind, i) => ({ kind, hits: answers[i].data, total: answers[i].meta.total }));
}

function Results({ found, onPick }) {
  if (found.every(({ hits }) => hits.length === 0)) return html`<p class="search-none">Nothing found.</p>`;
  return found
    .filter(({ hits }) => hits.length > 0)
    .map(
      ({ kind, hits, total }) => html`<section class="search-kind" aria-label=${kind.label}>
        <p class="search-kind-name" aria-hidden="true">${kind.label}${total > hits.length ? ` (${total})` : ""}</p>
        <ul>
          ${hits.map((hit) => html`<li><a href=${recordPath(kind.collection, hit.id)} onClick=${onPick}>${kind.text(hit)}</a></li>`)}
        </ul>
      </section>`,
    );
}

export function Search({ inputRef }) {
  const { api, me } = useConsole();
  const [text, setText] = useState("");
  const kinds = KINDS.filter((kind) => can(me, kind.capability));
  const q = searchable(text);
  const found = useLoad(({ signal }) => (q ? searchAll(api, kinds, q, signal) : null), [q], { wait: q ? DEBOUNCE_MS : 0 });
  const error = q ? found.error : null;
  if (kinds.length === 0) return html`<div class="search"></div>`;
  const close = () => setText("");
  const onKeyDown = (event) => event.key === "Escape" && close();
  return html`<div class="search" role="search" onKeyDown=${onKeyDown}>
    <label for="search-box" class="visually-hidden">Search gigs, people and venues</label>
    <input id="search-box" ref=${inputRef} type="search" placeholder="Search gigs, people, venues…  /"
      autocomplete="off" value=${text} onInput=${(event) => setText(event.target.value)} />
    <div class=${error || (q && found.answer) ? "search-results open" : "search-results"} aria-live="polite">
      ${error ? html`<p class="error">${error.message}</p>` : null}
      ${q && found.answer ? html`<${Results} found=${found.answer} onPick=${close} />` : null}
    </div>
  </div>`;
}
