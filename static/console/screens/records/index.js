// Records (SPEC §12, screen 6; §12.1): every collection of the API the user may read, grouped by purpose
// (records/words.js), each a link to its list page with a line on what it is for. The list is the OpenAPI
// document's: a collection added to the API appears here by itself, under "Other".

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { listPath } from "../../paths.js";
import { useDocument } from "../../records/document.js";
import { GROUPS } from "../../records/words.js";

function byGroup(collections) {
  const grouped = GROUPS.map((group) => ({ ...group, shown: group.collections.map((name) => collections.find((one) => one.name === name)).filter(Boolean) }));
  const placed = new Set(GROUPS.flatMap((group) => group.collections));
  const other = { title: "Other", line: "", shown: collections.filter((collection) => !placed.has(collection.name)) };
  return [...grouped, other].filter((group) => group.shown.length > 0);
}

const slug = (title) => title.toLowerCase().replace(/[^a-z]+/g, "-");

export default function Records() {
  const { me } = useConsole();
  const [doc, error] = useDocument();
  const shown = doc ? doc.collections.filter((collection) => collection.mayView(me)) : [];
  return html`<section class="screen records">
    <header class="screen-header"><h1>Records</h1></header>
    <${ErrorMessage} error=${error} />
    ${!doc && !error ? html`<${Loading} />` : null}
    <div class="record-groups">
      ${byGroup(shown).map((group) => html`<section class="record-group" aria-labelledby=${`group-${slug(group.title)}`}>
        <h2 id=${`group-${slug(group.title)}`}>${group.title}</h2>
        ${group.line ? html`<p class="group-line">${group.line}</p>` : null}
        <ul>${group.shown.map((collection) => html`<li>
          <a href=${listPath(collection.name)}>${collection.title}</a>${collection.line ? html` <span class="collection-line">${collection.line}</span>` : null}
        </li>`)}</ul>
      </section>`)}
    </div>
  </section>`;
}
