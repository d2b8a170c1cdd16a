// /admin/notifications (SPEC §9, §12 screen 7): what went out to whom, each channel's state; the generic list
// page of GET /notifications, with its documented filters and paging.

import { ErrorMessage, Loading } from "../../components/index.js";
import { html } from "../../lib.js";
import { useDocument } from "../../records/document.js";
import { RecordList } from "../../records/list.js";

export default function Notifications({ query }) {
  const [doc, error] = useDocument();
  const list = doc && doc.listOf("/notifications");
  return html`<section class="screen notifications-log">
    <header class="screen-header"><h1>Notifications log</h1>
      <nav class="screen-actions" aria-label="Actions"><a href="/admin">Admin</a></nav></header>
    <${ErrorMessage} error=${error} />
    ${!doc && !error ? html`<${Loading} />` : null}
    ${list ? html`<${RecordList} collection=${list} doc=${doc} query=${query} basePath="/admin/notifications" linked=${false} />` : null}
  </section>`;
}
