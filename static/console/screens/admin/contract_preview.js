// A contract template's text as the couple of a real gig would read it (SPEC §15): a gig with a quote picked, the
// text in the editor rendered by the service with that gig's facts, in the couple's language
// (`POST /contract-template-preview`), asked again once typing pauses, never per key.
//
//   <${ContractPreview} body=${values.body} />

import { fieldMessage } from "../../components/save_error.js";
import { ReferencePicker } from "../../components/reference_picker.js";
import { useConsole } from "../../context.js";
import { date } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";

const TYPING_PAUSE_MS = 500;
const GIGS_WITH_A_QUOTE = { "filter[quote_status][is_null]": "false", fields: "id,title,gig_date" };

const gigText = (gig) => [gig.title, gig.gig_date ? date(gig.gig_date) : null].filter(Boolean).join(" · ");

/** What the service said against the preview, in words: the text's problems, the gig's, or its message. */
function refusal(error) {
  return fieldMessage(error, "body") || fieldMessage(error, "gig_id") || error.message;
}

export function ContractPreview({ body }) {
  const { api } = useConsole();
  const [gig, setGig] = useState(null);
  const asked = gig && body.trim() ? gig.id : null;
  const shown = useLoad(
    async ({ signal }) => (asked ? (await api.post("/contract-template-preview", { body, gig_id: asked }, { signal })).data : null),
    [body, asked],
    { wait: asked ? TYPING_PAUSE_MS : 0 },
  );
  const text = asked && shown.answer ? shown.answer.text : null;
  return html`<section class="template-preview" aria-labelledby="template-preview-heading">
    <h2 id="template-preview-heading">Preview</h2>
    <p class="quiet-text">The text as the couple of a gig reads it: their names, date, products and money, in their language.</p>
    <${ReferencePicker} id="preview-gig" label="Gig with a quote" collection="gigs" value=${gig} text=${gigText}
      sort="gig_date" query=${GIGS_WITH_A_QUOTE} onChange=${setGig} />
    <div class="preview-status" role="status">${asked && shown.loading ? "Updating the preview…" : ""}</div>
    ${asked && shown.error ? html`<p class="error" role="alert">${refusal(shown.error)}</p>` : null}
    ${text !== null ? html`<pre class="contract-preview">${text}</pre>` : null}
    ${!gig ? html`<p class="quiet-text">Pick a gig to see the text with its facts.</p>` : null}
  </section>`;
}
