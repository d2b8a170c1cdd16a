// Records (SPEC §12, screen 6): every collection of the API the user may read, by group, each a link to its list
// page. The list is the OpenAPI document's: a collection added to the API appears here by itself.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { listPath } from "../../paths.js";
import { labelOf, useDocument } from "../../records/document.js";

function byGroup(collections) {
  const groups = new Map();
  for (const collection of collections) {
    if (!groups.has(collection.group)) groups.set(collection.group, []);
    groups.get(collection.group).push(collection);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export default function Records() {
  const { me } = useConsole();
  const [doc, error] = useDocument();
  const shown = doc ? doc.collections.filter((collection) => collection.mayView(me)) : [];
  return html`<section class="screen records">
    <header class="screen-header"><h1>Records</h1></header>
    <${ErrorMessage} error=${error} />
    ${!doc && !error ? html`<${Loading} />` : null}
    <div class="record-groups">
      ${byGroup(shown).map(([group, collections]) => html`<section class="record-group" aria-labelledby=${`group-${group}`}>
        <h2 id=${`group-${group}`}>${labelOf(group)}</h2>
        <ul>${collections.map((collection) => html`<li><a href=${listPath(collection.name)}>${collection.title}</a></li>`)}</ul>
      </section>`)}
    </div>
  </section>`;
}
