// /my/calendar (SPEC §13, §5.6): the musician's gigs in their phone's calendar. GET /me/calendar-url gives the
// feed's address, its webcal:// link (opened on a phone, its calendar subscribes) and that link as a QR code's rows,
// drawn here as an SVG: a phone scans it off the office laptop's screen, and no QR service is asked (none can be
// reached at a gig). "Make a new link" (POST /me/calendar-url/rotate) says first that the old link stops working;
// it is not shown while offline (useOffline: the app is read only then).

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad, useWrite } from "../../load.js";
import { useOffline } from "../../offline.js";

const QUIET_ZONE = 4; // light modules around the code: a reader needs them to find it

/** The dark modules of `rows` ("1" dark, "0" light) as one SVG path: a 1-high rectangle for each run of them. */
function pathOf(rows) {
  const parts = [];
  rows.forEach((row, y) => {
    for (const run of row.matchAll(/1+/g)) parts.push(`M${run.index} ${y}h${run[0].length}v1h-${run[0].length}z`);
  });
  return parts.join("");
}

/** A QR code drawn from its rows, black on white whatever the colour scheme (readers want dark on light). */
function QrCode({ rows, label }) {
  const side = rows.length + 2 * QUIET_ZONE;
  return html`<svg class="qr-code" viewBox=${`${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}`} role="img"
      aria-label=${label} shape-rendering="crispEdges">
    <rect x=${-QUIET_ZONE} y=${-QUIET_ZONE} width=${side} height=${side} fill="#fff" />
    <path d=${pathOf(rows)} fill="#000" />
  </svg>`;
}

function CopyAddress({ url }) {
  const [said, setSaid] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setSaid("Copied.");
    } catch {
      document.getElementById("calendar-https-url").select();
      setSaid("This browser does not let the page copy: the address is selected, copy it yourself.");
    }
  }
  return html`<div class="calendar-copy">
    <label for="calendar-https-url">Address for Google Calendar and other apps</label>
    <input id="calendar-https-url" class="calendar-url" readonly value=${url} onFocus=${(event) => event.target.select()} />
    ${navigator.clipboard
      ? html`<p class="actions"><button type="button" class="quiet" onClick=${copy}>Copy the address</button>
          <span role="status">${said}</span></p>`
      : null}
  </div>`;
}

/** "Make a new link", then a confirmation that says what stops working; `onRotated(feed)` with the new one. */
function NewLink({ onRotated }) {
  const { api } = useConsole();
  const [asking, setAsking] = useState(false);
  const { error, busy, run } = useWrite();
  const rotate = () =>
    run(async () => {
      onRotated((await api.post("/me/calendar-url/rotate")).data);
      setAsking(false);
    });
  if (!asking) {
    return html`<button type="button" class="quiet big" onClick=${() => setAsking(true)}>Make a new link…</button>`;
  }
  return html`<div class="confirm-new-link" role="group" aria-labelledby="new-link-warning">
    <p id="new-link-warning"><strong>The old link stops working.</strong> Every calendar subscribed to it stops
      getting your gigs until you subscribe again with the new link.</p>
    <${ErrorMessage} error=${error} />
    <p class="actions">
      <button type="button" class="big" onClick=${rotate} disabled=${busy}>Make the new link</button>
      <button type="button" class="quiet big" onClick=${() => setAsking(false)} disabled=${busy}>Keep the old link</button>
    </p>
  </div>`;
}

export default function MyCalendar() {
  const { api } = useConsole();
  const { offline } = useOffline();
  const found = useLoad(() => api.get("/me/calendar-url"), []);
  const [rotated, setRotated] = useState(false);
  function onRotated(next) {
    found.update(() => ({ data: next }));
    setRotated(true);
  }
  const feed = found.answer && found.answer.data;
  const { error } = found;
  return html`<section class="screen my-calendar">
    <header class="screen-header"><h1>My calendar</h1></header>
    <${ErrorMessage} error=${error} />
    ${!feed && !error ? html`<${Loading} />` : null}
    ${feed
      ? html`<p>Your gigs in your phone's calendar: subscribe once, and new gigs and changes show up by themselves.</p>
          <p><a class="subscribe-link" href=${feed.webcal_url}>Subscribe in my calendar</a></p>
          <p role="status" class="rotated">${rotated ? "This is your new link: subscribe again with it. The old one no longer works." : ""}</p>
          <section class="calendar-part" aria-labelledby="scan-heading">
            <h2 id="scan-heading">Scan it with your phone</h2>
            <p>Shown on another screen (the office laptop), this code subscribes the phone that scans it.</p>
            <${QrCode} rows=${feed.qr_code} label="QR code of your calendar link" />
          </section>
          <section class="calendar-part" aria-labelledby="copy-heading">
            <h2 id="copy-heading">Google Calendar</h2>
            <p>On a computer, in Google Calendar: Other calendars, +, From URL, and paste this address.</p>
            <${CopyAddress} url=${feed.url} />
          </section>
          ${offline
            ? null
            : html`<section class="calendar-part" aria-labelledby="new-link-heading">
                <h2 id="new-link-heading">Someone else has your link?</h2>
                <p>Anyone with the link sees your gigs. A new link shuts the old one out.</p>
                <${NewLink} onRotated=${onRotated} />
              </section>`}`
      : null}
  </section>`;
}
