// The agenda as a list: a row per gig (its day written once per day), the title a link to the gig.

import { StatusBadge } from "../../components.js";
import { date } from "../../format.js";
import { html } from "../../lib.js";
import { recordPath } from "../../paths.js";
import { Badges, PlaceAndTime } from "./gig.js";

function GigRow({ gig, firstOfDay }) {
  const day = date(gig.gig_date, { weekday: "short", day: "numeric", month: "short" });
  return html`<li class=${firstOfDay ? "gig-row first-of-day" : "gig-row"}>
    <span class="gig-date"><span class=${firstOfDay ? null : "visually-hidden"}>${day}</span></span>
    <a class="gig-title" href=${recordPath("gigs", gig.id)}><bdi>${gig.title}</bdi></a>
    <${PlaceAndTime} gig=${gig} />
    <${StatusBadge} status=${gig.gig_status} />
    <${Badges} gig=${gig} />
  </li>`;
}

export function GigList({ gigs }) {
  return html`<ul class="gig-list" aria-label="Gigs">
    ${gigs.map(
      (gig, i) => html`<${GigRow} key=${gig.id} gig=${gig} firstOfDay=${i === 0 || gigs[i - 1].gig_date !== gig.gig_date} />`,
    )}
  </ul>`;
}
