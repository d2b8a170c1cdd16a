// The gig page's Files tab: the gig's attachments (SPEC §4.8), uploaded by dropping files on the drop zone or
// choosing them, each with its progress; downloaded (the bytes asked with the bearer, saved under their name);
// described in place; deleted.

import { InPlace } from "../../components/in_place.js";
import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { moment } from "../../format.js";
import { html, useState } from "../../lib.js";
import { can } from "../../me.js";
import { useRows } from "./rows.js";

function size(bytes) {
  if (bytes === null || bytes === undefined) return "";
  const units = ["bytes", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function Uploads({ uploads }) {
  if (uploads.length === 0) return null;
  return html`<ul class="uploads" aria-label="Uploads">
    ${uploads.map(
      (upload) => html`<li key=${upload.key}>
        <span>${upload.name}</span>
        ${upload.error
          ? html`<span class="error" role="alert">Not uploaded: ${upload.error.message}</span>`
          : upload.done
            ? html`<span role="status">Uploaded</span>`
            : html`<progress max="100" value=${upload.percent} aria-label=${`Uploading ${upload.name}`}>${upload.percent}%</progress>`}
      </li>`,
    )}
  </ul>`;
}

function useUploads(gig, onUploaded) {
  const { api } = useConsole();
  const [uploads, setUploads] = useState([]);
  const update = (key, changes) => setUploads((now) => now.map((one) => (one.key === key ? { ...one, ...changes } : one)));
  const start = (files) => {
    for (const file of files) {
      const key = `${Date.now()}-${Math.random()}`;
      setUploads((now) => [...now, { key, name: file.name, percent: 0, done: false, error: null }]);
      const form = new FormData();
      form.append("gig_id", gig.id);
      form.append("file", file, file.name);
      api
        .upload("/attachments", form, (sent, total) => update(key, { percent: total ? Math.round((100 * sent) / total) : 0 }))
        .then(
          () => {
            update(key, { done: true, percent: 100 });
            onUploaded();
          },
          (error) => update(key, { error }),
        );
    }
  };
  return { uploads, start };
}

function DropZone({ onFiles }) {
  const [over, setOver] = useState(false);
  const onDrop = (event) => {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length) onFiles(event.dataTransfer.files);
  };
  return html`<div class=${over ? "drop-zone over" : "drop-zone"}
    onDragOver=${(event) => {
      event.preventDefault();
      setOver(true);
    }}
    onDragLeave=${() => setOver(false)} onDrop=${onDrop}>
    <p>Drop files here, or</p>
    <label class="file-choice" for="attach-files">Choose files…</label>
    <input id="attach-files" class="visually-hidden" type="file" multiple
      onChange=${(event) => {
        onFiles(event.target.files);
        event.target.value = "";
      }} />
  </div>`;
}

function FileRow({ row, editable, reload, onError }) {
  const { api } = useConsole();
  const name = row.filename || "Unnamed file";
  const fetchIt = () => api.download(`/attachments/${row.id}/content`, name).catch(onError);
  const remove = () => api.delete(`/attachments/${row.id}`).then(reload, onError);
  return html`<li class="file-row">
    <button type="button" class="link" onClick=${fetchIt} aria-label=${`Download ${name}`}>${name}</button>
    <span class="muted">${[size(row.size_bytes), moment(row.created_at)].filter(Boolean).join(" · ")}</span>
    <${InPlace} id=${`attachment-${row.id}-description`} field="description" label="Description" type="text"
      value=${row.description} editable=${editable}
      onSave=${(value) => api.patch(`/attachments/${row.id}`, { description: value }).then(reload)} />
    ${editable ? html`<button type="button" class="quiet remove" aria-label=${`Delete ${name}`} onClick=${remove}>Delete</button>` : null}
  </li>`;
}

export default function Files({ gig }) {
  const { me } = useConsole();
  const editable = can(me, "gigs.edit");
  const { rows, error, reload } = useRows("/attachments", gig.id, { sort: "-created_at" });
  const [failure, setFailure] = useState(null);
  const { uploads, start } = useUploads(gig, reload);
  return html`<div class="files">
    <h2>Files</h2>
    ${editable ? html`<${DropZone} onFiles=${start} />` : null}
    <${Uploads} uploads=${uploads} />
    <${SaveError} error=${error || failure} id="files-error" />
    ${rows && rows.length === 0 ? html`<p class="muted">No files yet.</p>` : null}
    ${rows && rows.length > 0
      ? html`<ul class="file-list">${rows.map((row) => html`<${FileRow} key=${row.id} row=${row} editable=${editable} reload=${reload} onError=${setFailure} />`)}</ul>`
      : null}
  </div>`;
}
