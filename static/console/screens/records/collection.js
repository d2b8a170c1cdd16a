// /records/:collection: the list page of any collection of the API (records/list.js), with "New" for those who
// may create.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html } from "../../lib.js";
import { listPath } from "../../paths.js";
import { labelOf, useDocument } from "../../records/document.js";
import { RecordList } from "../../records/list.js";

export default function RecordListScreen({ params, query }) {
  const { me } = useConsole();
  const [doc, error] = useDocument();
  const collection = doc && doc.collection(params.collection);
  const basePath = listPath(params.collection);
  return html`<section class="screen record-list-screen">
    <header class="screen-header">
      <h1>${collection ? collection.title : labelOf(params.collection.replace(/-/g, "_"))}</h1>
      <nav class="screen-actions" aria-label="Actions">
        <a href="/records">All records</a>
        ${collection && collection.mayCreate(me) ? html`<a class="button" href=${`${basePath}/new`}>New</a>` : null}
      </nav>
    </header>
    <${ErrorMessage} error=${error} />
    ${!doc && !error ? html`<${Loading} />` : null}
    ${doc && !collection ? html`<p>The API has no collection named “${params.collection}”.</p>` : null}
    ${collection && !collection.mayView(me) ? html`<p>You may not read these records.</p>` : null}
    ${collection && collection.mayView(me)
      ? html`<${RecordList} collection=${collection} doc=${doc} query=${query} basePath=${basePath} />`
      : null}
  </section>`;
}
