// The gig page's Run sheet tab: the gig's moments in order, each with its songs, then the songs of no moment.
// Moments and songs are added, edited in place, removed, and put in order by dragging or by keys (ordered_list.js);
// the order is saved to their `position`. "Print" gives the run sheet alone (console.css's print section). What the
// couple asked for on their page (SPEC §16) is shown with it: a moment's proposed time and note, their songs.

import { InPlace } from "../../components/in_place.js";
import { ReferencePicker } from "../../components/reference_picker.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { time } from "../../format.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { can } from "../../me.js";
import { OrderedList, moved } from "./ordered_list.js";
import { useRows } from "./rows.js";

const KINDS = [["request", "Requested"], ["do_not_play", "Do not play"], ["setlist", "Setlist"]];
const songText = (song) => [song.title, song.artist].filter(Boolean).join(" — ");

/** PATCH the position of each row whose place changed; `rows` in their new order. */
async function savePositions(api, path, rows) {
  const changed = rows.map((row, i) => [row, i + 1]).filter(([row, position]) => row.position !== position);
  for (const [row, position] of changed) await api.patch(`${path}/${row.id}`, { position });
}

function songsByMoment(moments, songs) {
  const groups = moments.map((moment) => ({ moment, songs: songs.filter((song) => song.gig_moment_id === moment.id) }));
  const known = new Set(moments.map((moment) => moment.id));
  return { groups, loose: songs.filter((song) => !known.has(song.gig_moment_id)) };
}

function AddMoment({ gig, count, onAdded }) {
  const { api } = useConsole();
  const [moment, setMoment] = useState(null);
  const [name, setName] = useState("");
  const [at, setAt] = useState("");
  const { error, run } = useWrite();
  const add = () =>
    run(async () => {
      const body = { gig_id: gig.id, moment_id: moment ? moment.id : null, name: name || null, time: at || null, position: count + 1 };
      await api.post("/gig-moments", body);
      setMoment(null);
      setName("");
      setAt("");
      onAdded();
    });
  return html`<div class="add-row" role="group" aria-label="Add a moment">
    <${ReferencePicker} id="add-moment-kind" label="Moment from the catalog" collection="moments" sort="position"
      value=${moment} optional=${true} onChange=${setMoment} />
    <div class="form-field"><label for="add-moment-name">Or its own name</label>
      <input id="add-moment-name" value=${name} onInput=${(event) => setName(event.target.value)} /></div>
    <div class="form-field"><label for="add-moment-time">Time</label>
      <input id="add-moment-time" type="time" value=${at} onInput=${(event) => setAt(event.target.value)} /></div>
    <button type="button" onClick=${add}>Add moment</button>
    <${SaveError} error=${error} id="add-moment-error" />
  </div>`;
}

function AddSong({ gig, moments, count, onAdded }) {
  const { api } = useConsole();
  const [song, setSong] = useState(null);
  const [momentId, setMomentId] = useState("");
  const [kind, setKind] = useState("request");
  const { error, run } = useWrite();
  const add = () =>
    run(async () => {
      const body = { gig_id: gig.id, song_id: song.id, gig_moment_id: momentId || null, kind, position: count + 1 };
      await api.post("/gig-songs", body);
      setSong(null);
      onAdded();
    });
  return html`<div class="add-row" role="group" aria-label="Add a song">
    <${ReferencePicker} id="add-song" label="Add a song" collection="songs" sort="title" text=${songText}
      query=${{ "filter[active]": "true" }} value=${song} onChange=${setSong} />
    ${song
      ? html`<div class="form-field"><label for="add-song-moment">During</label>
          <select id="add-song-moment" value=${momentId} onChange=${(event) => setMomentId(event.target.value)}>
            <option value="">No moment</option>
            ${moments.map((moment) => html`<option value=${moment.id}>${moment.name}</option>`)}
          </select></div>
        <div class="form-field"><label for="add-song-kind">Kind</label>
          <select id="add-song-kind" value=${kind} onChange=${(event) => setKind(event.target.value)}>
            ${KINDS.map(([value, words]) => html`<option value=${value}>${words}</option>`)}
          </select></div>
        <button type="button" onClick=${add}>Add ${song.title}</button>`
      : null}
    <${SaveError} error=${error} id="add-song-error" />
  </div>`;
}

function Moment({ moment, editable, save, remove }) {
  const id = `moment-${moment.id}`;
  return html`<div class="moment">
    <div class="moment-line">
      <${InPlace} id=${`${id}-time`} field="time" label="Time" type="time" value=${moment.time} display=${time(moment.time)}
        placeholder="Time…"
        editable=${editable} onSave=${(value) => save({ time: value })} />
      <${InPlace} id=${`${id}-name`} field="name" label="Moment" type="text" value=${moment.name} editable=${editable}
        onSave=${(value) => save({ name: value })} />
      ${editable ? html`<button type="button" class="quiet remove" aria-label=${`Remove ${moment.name}`} onClick=${remove}>Remove</button>` : null}
    </div>
    <${InPlace} id=${`${id}-notes`} field="notes" label="Notes" type="textarea" value=${moment.notes} editable=${editable}
      placeholder="Add notes…"
      onSave=${(value) => save({ notes: value })} />
    ${moment.proposed_time || moment.proposed_note
      ? html`<p class="couple-wish">The couple asks: ${[time(moment.proposed_time), moment.proposed_note].filter(Boolean).join(" · ")}</p>`
      : null}
  </div>`;
}

function Song({ song, editable, save, remove }) {
  const id = `song-${song.id}`;
  return html`<div class="song">
    <span class="song-title">${songText(song)}</span>
    ${song.from_client ? html`<span class="muted">from the couple</span>` : null}
    ${/^https?:\/\//i.test(song.link || "") ? html`<a href=${song.link} rel="noopener noreferrer" target="_blank">Listen</a>` : null}
    <${InPlace} id=${`${id}-kind`} field="kind" label="Kind" type="select" options=${KINDS} value=${song.kind}
      display=${(KINDS.find(([value]) => value === song.kind) || [null, song.kind])[1]} editable=${editable}
      onSave=${(value) => save({ kind: value })} />
    ${editable ? html`<button type="button" class="quiet remove" aria-label=${`Remove ${song.title}`} onClick=${remove}>Remove</button>` : null}
  </div>`;
}

export default function RunSheet({ gig }) {
  const { api, me } = useConsole();
  const editable = can(me, "gigs.edit");
  const moments = useRows("/gig-moments", gig.id, { sort: "position" });
  const songs = useRows("/gig-songs", gig.id, { sort: "position" });
  const writing = useWrite();
  if (!moments.rows || !songs.rows) return html`<h2>Run sheet</h2><${SaveError} error=${moments.error || songs.error} id="run-sheet-error" />`;
  const { groups, loose } = songsByMoment(moments.rows, songs.rows);
  const change = (request, rows) => writing.run(() => request).then(() => rows.reload());
  const moveMoment = (from, to) => {
    const next = moved(moments.rows, from, to);
    moments.setRows(next.map((row, i) => ({ ...row, position: i + 1 })));
    change(savePositions(api, "/gig-moments", next), moments);
  };
  const moveSong = (group) => (from, to) => {
    const regrouped = groups.map(({ moment, songs: list }) => (list === group ? moved(list, from, to) : list));
    const next = [...regrouped.flat(), ...(group === loose ? moved(loose, from, to) : loose)];
    songs.setRows(next.map((row, i) => ({ ...row, position: i + 1 })));
    change(savePositions(api, "/gig-songs", next), songs);
  };
  const songList = (list, label) =>
    html`<${OrderedList} items=${list} label=${label} editable=${editable} keyOf=${(song) => song.id} nameOf=${(song) => song.title}
      onMove=${moveSong(list)}
      render=${(song) => html`<${Song} song=${song} editable=${editable}
        save=${(changes) => api.patch(`/gig-songs/${song.id}`, changes).then(songs.reload)}
        remove=${() => change(api.delete(`/gig-songs/${song.id}`), songs)} />`} />`;
  return html`<div class="run-sheet">
    <div class="run-sheet-head">
      <h2>Run sheet</h2>
      <button type="button" class="quiet no-print" onClick=${() => window.print()}>Print</button>
    </div>
    <${SaveError} error=${writing.error} id="run-sheet-error" />
    ${moments.rows.length === 0 && songs.rows.length === 0 ? html`<p class="muted">Nothing on the run sheet yet.</p>` : null}
    <${OrderedList} items=${moments.rows} label="Moments" editable=${editable} keyOf=${(moment) => moment.id}
      nameOf=${(moment) => moment.name} onMove=${moveMoment}
      render=${(moment) => {
        const group = groups.find((one) => one.moment.id === moment.id);
        return html`<${Moment} moment=${moment} editable=${editable}
            save=${(changes) => api.patch(`/gig-moments/${moment.id}`, changes).then(moments.reload)}
            remove=${() => change(api.delete(`/gig-moments/${moment.id}`), moments)} />
          ${group.songs.length > 0 ? songList(group.songs, `Songs during ${moment.name}`) : null}`;
      }} />
    ${loose.length > 0 ? html`<h3>Songs at no particular moment</h3>${songList(loose, "Songs at no particular moment")}` : null}
    ${editable
      ? html`<div class="no-print">
          <${AddMoment} gig=${gig} count=${moments.rows.length} onAdded=${moments.reload} />
          <${AddSong} gig=${gig} moments=${moments.rows} count=${songs.rows.length} onAdded=${songs.reload} />
        </div>`
      : null}
  </div>`;
}
