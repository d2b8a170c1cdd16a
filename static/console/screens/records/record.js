// /records/:collection/new and /records/:collection/:id: a record's form made from the API's schema
// (records/form.js), headed by the record's name (what it is above it), "Created" after the create that made it.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { listPath } from "../../paths.js";
import { labelOf, useDocument } from "../../records/document.js";
import { justCreated, RecordForm } from "../../records/form.js";
import { recordLabel } from "../../records/label.js";

// tried in order; the first that matches is the only one applied ("Gig statuses" -> "Gig status")
const SINGULARS = [
  [/ies$/, "y"],
  [/(ss|us)es$/, "$1"],
  [/([^s])s$/, "$1"],
];

function singular(title) {
  const rule = SINGULARS.find(([plural]) => plural.test(title));
  return rule ? title.replace(rule[0], rule[1]) : title;
}

export default function RecordScreen({ params }) {
  const { me } = useConsole();
  const [doc, error] = useDocument();
  const [record, setRecord] = useState(null);
  const [created] = useState(() => Boolean(params.id) && justCreated(params.id));
  const collection = doc && doc.collection(params.collection);
  const title = collection ? collection.title : labelOf(params.collection.replace(/-/g, "_"));
  const creating = !params.id;
  const basePath = listPath(params.collection);
  return html`<section class="screen record-screen">
    <header class="screen-header">
      <div>
        ${creating ? null : html`<p class="kicker">${singular(title)}</p>`}
        <h1>${creating ? `New ${singular(title).toLowerCase()}` : record ? recordLabel(record) : singular(title)}</h1>
      </div>
      <nav class="screen-actions" aria-label="Actions"><a href=${basePath}>All ${title.toLowerCase()}</a></nav>
    </header>
    ${created ? html`<p class="created" role="status">Created.</p>` : null}
    <${ErrorMessage} error=${error} />
    ${!doc && !error ? html`<${Loading} />` : null}
    ${doc && !collection ? html`<p>The API has no collection named “${params.collection}”.</p>` : null}
    ${collection && creating && !collection.mayCreate(me) ? html`<p>You may not create these records.</p>` : null}
    ${collection && (!creating || collection.mayCreate(me))
      ? html`<${RecordForm} key=${params.id || "new"} collection=${collection} doc=${doc} id=${params.id || null} basePath=${basePath}
          onRecord=${setRecord} />`
      : null}
  </section>`;
}
