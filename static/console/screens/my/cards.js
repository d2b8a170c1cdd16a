// The pieces of a musician's gig and invitation as the phone shows them (SPEC §13): the
// date, the call time first, the venue as a map link, their role and pay, the lineup by first names, the run sheet.
// Times exactly as GET /me/gigs gives them (the venue's); money in the office's currency; every text a text node,
// isolated (<bdi>) so that a right-to-left override in one does not turn the line around it.

import { StatusBadge } from "../../components/index.js";
import { amount, date, timeRange } from "../../format.js";
import { html } from "../../lib.js";

const SONG_KINDS = { request: "Requested", do_not_play: "Do not play", setlist: "Setlist" };

/** Where a map shows the venue: OpenStreetMap's search for its address (its name when it has none). */
export function mapUrl(venue) {
  const place = [venue.name, venue.address].filter(Boolean).join(", ");
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(place)}`;
}

/** The earliest call time of `roles` ("17:00"), or "". */
export function firstCall(roles) {
  return roles.map((role) => role.call_time).filter(Boolean).sort()[0] || "";
}

export function pay(role) {
  return role.amount_cents === null || role.amount_cents === undefined ? "pay not agreed yet" : amount(role.amount_cents);
}

export function Text({ value }) {
  return html`<bdi>${value}</bdi>`;
}

/** "Sat, 9 Jan 2027" and the status, then "Call 17:00 · 18:00–02:30". */
export function When({ gig, roles }) {
  const call = firstCall(roles);
  const plays = timeRange(gig.start_time, gig.end_time);
  return html`<p class="my-date"><span>${date(gig.gig_date)}</span> <${StatusBadge} status=${gig.status} /></p>
    <p class="my-times">
      ${call ? html`<strong class="my-call">Call ${call}</strong>` : null}${call && plays ? " · " : null}${plays ? html`<span class="my-nowrap">${plays}</span>` : null}
    </p>`;
}

export function Venue({ venue }) {
  if (!venue) return html`<p class="my-venue muted">No venue yet</p>`;
  return html`<p class="my-venue">
    <a href=${mapUrl(venue)} target="_blank" rel="noopener noreferrer"><${Text} value=${venue.name} /><span class="visually-hidden"> (map)</span></a>
    ${venue.address ? html`<span class="my-address"><${Text} value=${venue.address} /></span>` : null}
  </p>`;
}

/** "Lead vocals · Reception 18:00–00:30 · €450.00" */
export function RoleLine({ role }) {
  const product = role.product;
  return html`<span class="my-role"><strong><${Text} value=${role.role} /></strong>${product
      ? html` · <${Text} value=${product.name} />${product.start_time ? html` <span class="my-nowrap">${timeRange(product.start_time, product.end_time)}</span>` : null}`
      : null} · <span class="my-role-pay">${pay(role)}</span></span>`;
}

/** "With Tobias (Guitar), Miriam (Bass)": the others on the gig by first name. */
export function Lineup({ lineup }) {
  if (!lineup || lineup.length === 0) return html`<p class="my-lineup muted">Nobody else on the lineup yet</p>`;
  return html`<p class="my-lineup">With ${lineup.map(
    (player, i) => html`${i > 0 ? ", " : ""}<${Text} value=${player.first_name} /> (<${Text} value=${player.role} />)`,
  )}</p>`;
}

function Song({ song }) {
  return html`<li class="my-song">
    <${Text} value=${song.title} />${song.artist ? html` <span class="muted">(<${Text} value=${song.artist} />)</span>` : null}
    ${song.kind !== "request" ? html` <span class="badge">${SONG_KINDS[song.kind] || song.kind}</span>` : null}
    ${song.notes ? html`<span class="my-notes"><${Text} value=${song.notes} /></span>` : null}
  </li>`;
}

function Songs({ songs, label }) {
  if (songs.length === 0) return null;
  return html`<ul class="my-songs" aria-label=${label}>${songs.map((song) => html`<${Song} key=${song.id} song=${song} />`)}</ul>`;
}

/** The moments in order, each with its songs; then the songs of no moment. */
export function RunSheet({ gig }) {
  const moments = gig.moments || [];
  const songs = gig.songs || [];
  const loose = songs.filter((song) => !moments.some((moment) => moment.id === song.gig_moment_id));
  if (moments.length === 0 && songs.length === 0) return html`<p class="muted">No run sheet yet.</p>`;
  return html`<ol class="my-moments">
      ${moments.map(
        (moment) => html`<li key=${moment.id}>
          <span class="my-moment-time">${moment.time || ""}</span>
          <span class="my-moment-name"><${Text} value=${moment.name} /></span>
          ${moment.notes ? html`<span class="my-notes"><${Text} value=${moment.notes} /></span>` : null}
          <${Songs} songs=${songs.filter((song) => song.gig_moment_id === moment.id)} label=${`Songs at ${moment.name}`} />
        </li>`,
      )}
    </ol>
    ${loose.length > 0 ? html`<p class="my-songs-heading">Songs</p><${Songs} songs=${loose} label="Other songs" />` : null}`;
}

export function runSheetSummary(gig) {
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  return `${count((gig.moments || []).length, "moment", "moments")}, ${count((gig.songs || []).length, "song", "songs")}`;
}
