// My gigs (SPEC §13; the home of a user without office work): the invitations to answer first, each in one tap
// with the time left, then the upcoming gigs as cards with their run sheet folded under them. Two calls:
// GET /me/invitations (pending) and GET /me/gigs (from today on); the tab bar's unread count is the third.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { html, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { myGigPath, myInvitationPath } from "../../paths.js";
import { AnswerButtons, Outcome, answerWithin } from "./answer.js";
import { Lineup, RoleLine, RunSheet, Text, Venue, When, runSheetSummary } from "./cards.js";

const FIRST_GIGS = 30;
const MOST_GIGS = 200;

const held = (gig) => gig.roles.filter((role) => !role.invitation);

function InvitationCard({ invitation, onAnswered }) {
  const { gig, role } = invitation;
  const headingId = `invitation-${invitation.id}`;
  return html`<li class="my-card my-invitation">
    <article aria-labelledby=${headingId}>
      <${When} gig=${gig} roles=${[role]} />
      <h3 id=${headingId}><a href=${myInvitationPath(invitation.id)}><${Text} value=${gig.title} /></a></h3>
      <p><${RoleLine} role=${role} /></p>
      <p class="my-deadline"><time datetime=${invitation.expires_at}>${answerWithin(invitation.expires_at)}</time></p>
      <${Venue} venue=${gig.venue} />
      ${invitation.message ? html`<p class="my-message"><${Text} value=${invitation.message} /></p>` : null}
      <${AnswerButtons} invitation=${invitation} onAnswered=${onAnswered} />
    </article>
  </li>`;
}

function GigCard({ gig }) {
  const roles = held(gig);
  const headingId = `gig-${gig.id}`;
  return html`<li class="my-card my-gig">
    <article aria-labelledby=${headingId}>
      <${When} gig=${gig} roles=${roles} />
      <h3 id=${headingId}><a href=${myGigPath(gig.id)}><${Text} value=${gig.title} /></a></h3>
      <${Venue} venue=${gig.venue} />
      <ul class="my-roles" aria-label="Your roles">${roles.map((role) => html`<li key=${role.gig_role_id}><${RoleLine} role=${role} /></li>`)}</ul>
      <${Lineup} lineup=${gig.lineup} />
      <details class="my-run-sheet">
        <summary>Run sheet <span class="muted">(${runSheetSummary(gig)})</span></summary>
        <${RunSheet} gig=${gig} />
      </details>
    </article>
  </li>`;
}

function Invitations({ answer, onAnswered }) {
  const invitations = answer ? answer.data : [];
  if (invitations.length === 0) return null;
  const total = answer.meta.total;
  return html`<section class="my-section" aria-labelledby="to-answer-heading">
    <h2 id="to-answer-heading">To answer (${total})</h2>
    <ul class="my-cards">
      ${invitations.map((invitation) => html`<${InvitationCard} key=${invitation.id} invitation=${invitation} onAnswered=${onAnswered} />`)}
    </ul>
  </section>`;
}

function Upcoming({ answer, limit, onMore }) {
  if (!answer) return html`<${Loading} />`;
  const gigs = answer.data.filter((gig) => held(gig).length > 0);
  const more = answer.meta.total > answer.data.length && limit < MOST_GIGS;
  return html`<section class="my-section" aria-labelledby="upcoming-heading">
    <h2 id="upcoming-heading">Coming up</h2>
    ${gigs.length === 0 ? html`<p class="empty">No gigs coming up. When you accept an invitation, its gig is shown here.</p>` : null}
    <ul class="my-cards">${gigs.map((gig) => html`<${GigCard} key=${gig.id} gig=${gig} />`)}</ul>
    ${more ? html`<p><button type="button" class="quiet my-more" onClick=${onMore}>Show more gigs</button></p>` : null}
  </section>`;
}

export default function MyGigs() {
  const { api } = useConsole();
  const [limit, setLimit] = useState(FIRST_GIGS);
  const [outcome, setOutcome] = useState(null);
  const pending = { "filter[status]": "pending", sort: "expires_at", limit: 50 }; // the most urgent first
  const invitations = useLoad(() => api.get("/me/invitations", pending), []);
  const gigs = useLoad(() => api.get("/me/gigs", { limit }), [limit]);
  const onAnswered = (said) => {
    setOutcome(said);
    invitations.reload();
    gigs.reload();
  };
  const error = invitations.error || gigs.error;
  return html`<section class="screen my-home">
    <header class="screen-header my-header">
      <h1>My gigs</h1>
      <a class="my-settings" href="/my/settings">Settings</a>
    </header>
    <${Outcome} outcome=${outcome} />
    <${ErrorMessage} error=${error} />
    ${error && !gigs.answer ? null : html`<${Invitations} answer=${invitations.answer} onAnswered=${onAnswered} />
      <${Upcoming} answer=${gigs.answer} limit=${limit} onMore=${() => setLimit(MOST_GIGS)} />`}
  </section>`;
}
