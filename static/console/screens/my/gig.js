// One of the musician's gigs in full (SPEC §13; a notification about the gig opens it): when (the call time first),
// where (a map link), their roles and pay (an invitation still to answer with its buttons), the load-in, the whole
// lineup by first name, the run sheet. One call: GET /me/gigs?filter[id]=….

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { pageTitle } from "../../format.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { myInvitationPath } from "../../paths.js";
import { AnswerButtons, Outcome, answerWithin } from "./answer.js";
import { RoleLine, RunSheet, Text, Venue, When } from "./cards.js";

function Role({ gig, role, onAnswered }) {
  if (!role.invitation) return html`<li><${RoleLine} role=${role} /></li>`;
  const invitation = { id: role.invitation.id, gig, role };
  return html`<li class="my-invited">
    <${RoleLine} role=${role} />
    <p class="my-deadline">Invited: <a href=${myInvitationPath(role.invitation.id)}>${answerWithin(role.invitation.expires_at)}</a></p>
    <${AnswerButtons} invitation=${invitation} onAnswered=${onAnswered} />
  </li>`;
}

function Players({ lineup }) {
  if (!lineup || lineup.length === 0) return html`<p class="muted">Nobody else on the lineup yet.</p>`;
  return html`<ul class="my-players">
    ${lineup.map(
      (player, i) => html`<li key=${i}><${Text} value=${player.first_name} /> <span class="muted">· <${Text} value=${player.role} />${player.product ? html` (<${Text} value=${player.product} />)` : null}</span></li>`,
    )}
  </ul>`;
}

function Gig({ gig, onAnswered }) {
  return html`<div class="my-card my-gig-page">
      <${When} gig=${gig} roles=${gig.roles.filter((role) => !role.invitation)} />
      ${gig.load_in_time ? html`<p class="muted">Load-in ${gig.load_in_time}</p>` : null}
      <${Venue} venue=${gig.venue} />
    </div>
    <section class="my-section" aria-labelledby="roles-heading">
      <h2 id="roles-heading">Your part</h2>
      <ul class="my-roles">${gig.roles.map((role) => html`<${Role} key=${role.gig_role_id} gig=${gig} role=${role} onAnswered=${onAnswered} />`)}</ul>
    </section>
    <section class="my-section" aria-labelledby="lineup-heading">
      <h2 id="lineup-heading">Lineup</h2>
      <${Players} lineup=${gig.lineup} />
    </section>
    <section class="my-section" aria-labelledby="run-sheet-heading">
      <h2 id="run-sheet-heading">Run sheet</h2>
      <${RunSheet} gig=${gig} />
    </section>`;
}

export default function MyGig({ params }) {
  const { api } = useConsole();
  const [outcome, setOutcome] = useState(null);
  const found = useLoad(() => api.get("/me/gigs", { "filter[id]": params.id }), [params.id]);
  const gig = found.answer && found.answer.data[0];
  useEffect(() => {
    if (gig) document.title = pageTitle(gig.title);
  }, [gig && gig.id]);
  const onAnswered = (said) => {
    setOutcome(said);
    found.reload();
  };
  const title = gig ? html`<${Text} value=${gig.title} />` : found.answer ? "Gig not found" : "Gig";
  return html`<section class="screen my-gig-screen">
    <p class="my-back"><a href="/my">← My gigs</a></p>
    <h1>${title}</h1>
    <${Outcome} outcome=${outcome} />
    <${ErrorMessage} error=${found.error} />
    ${!found.answer && !found.error ? html`<${Loading} />` : null}
    ${found.answer && !gig ? html`<p>None of your gigs has this address: you may have been taken off it, or it was an invitation no longer open.</p>` : null}
    ${gig ? html`<${Gig} gig=${gig} onAnswered=${onAnswered} />` : null}
  </section>`;
}
