// The gig page's "New from the couple" (SPEC §16): what the couple changed on their page in the last 30 days
// (song wishes, times and notes proposed for moments, notes to the band), newest first, from the gig's history by
// the actor `client`; nothing at all when they changed nothing. The whole of it is in the History tab.

import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { moment as when } from "../../format.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { gigPath } from "../../paths.js";
import { ago } from "./history_words.js";

const SHOWN = 8;
const RECENT_MS = 30 * 24 * 3600 * 1000;
const SONG_VERBS = { created: "added", updated: "changed", deleted: "removed" };

const quoted = (text) => (text ? `“${text}”` : "");

function songWords(verb, data, moments) {
  const by = data.artist ? ` by ${data.artist}` : "";
  const on = moments[data.gig_moment_id] ? ` for ${quoted(moments[data.gig_moment_id])}` : "";
  const kind = data.kind === "do_not_play" ? "a song not to play" : "a song wish";
  return `${SONG_VERBS[verb]} ${kind}: ${quoted(data.title)}${by}${on}`;
}

/** One of the couple's changes as a sentence, without who and when. */
export function coupleWords(event, moments) {
  const data = event.data || {};
  const verb = event.type.split(".")[1];
  if (event.type === "gig_moment.updated") {
    const proposal = [data.proposed_time, quoted(data.proposed_note)].filter(Boolean).join(", ");
    return proposal ? `proposed ${proposal} for ${quoted(data.name)}` : `took back the proposal for ${quoted(data.name)}`;
  }
  if (event.subject.collection === "client_notes") {
    return verb === "created" ? `wrote to the band: ${quoted(data.body)}` : `took back the note ${quoted(data.body)}`;
  }
  if (event.subject.collection === "gig_songs") return songWords(verb, data, moments);
  return event.type;
}

async function fromCouple(api, gigId) {
  const [history, moments] = await Promise.all([
    api.get(`/gigs/${encodeURIComponent(gigId)}/history`, { "filter[actor_token_kind]": "client", limit: SHOWN }),
    api.get("/gig-moments", { "filter[gig_id]": gigId, fields: "id,name", limit: 200 }),
  ]);
  const since = Date.now() - RECENT_MS;
  return {
    events: history.data.filter((event) => new Date(event.occurred_at).getTime() >= since),
    more: history.meta.total > SHOWN,
    moments: Object.fromEntries(moments.data.map((one) => [one.id, one.name])),
  };
}

export function FromCouple({ gig }) {
  const { api } = useConsole();
  const found = useLoad(() => fromCouple(api, gig.id), [gig.id]);
  useFollow({ gig_id: gig.id }, () => found.reload(), [gig.id]);
  const news = found.answer;
  if (!news || news.events.length === 0) return null;
  return html`<section class="from-couple" aria-labelledby="from-couple-heading">
    <h2 id="from-couple-heading">New from the couple</h2>
    <ul>
      ${news.events.map(
        (event) => html`<li key=${event.id}>
          <strong>${event.actor.name}</strong> ${coupleWords(event, news.moments)}
          <span class="muted"> · <time datetime=${event.occurred_at} title=${when(event.occurred_at)}>${ago(event.occurred_at)}</time></span>
        </li>`,
      )}
    </ul>
    ${news.more ? html`<p><a href=${gigPath(gig.id, "history")}>All their changes in the history</a></p>` : null}
  </section>`;
}
