// One invitation (SPEC §13; a notification about it opens it): the gig, the role and the pay, the office's message,
// the time left and the answer buttons while it is pending, else what became of it. One call:
// GET /me/invitations?filter[id]=….

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { pageTitle } from "../../format.js";
import { html, useEffect, useState } from "../../lib.js";
import { useLoad } from "../../load.js";
import { myGigPath } from "../../paths.js";
import { AnswerButtons, Outcome, answerWithin } from "./answer.js";
import { RoleLine, Text, Venue, When } from "./cards.js";

const STATUS_WORDS = {
  accepted: "You accepted this invitation: you are on the lineup.",
  declined: "You declined this invitation.",
  withdrawn: "The office withdrew this invitation (the role may have been taken): there is nothing to answer.",
  expired: "This invitation expired before it was answered. Ask the office whether the role is still open.",
};

function Invitation({ invitation, onAnswered }) {
  const { gig, role } = invitation;
  const pending = invitation.status === "pending";
  const gigPath = myGigPath(gig.id);
  return html`<div class="my-card my-invitation">
    <${When} gig=${gig} roles=${[role]} />
    <p><${RoleLine} role=${role} /></p>
    <${Venue} venue=${gig.venue} />
    ${invitation.message ? html`<p class="my-message"><${Text} value=${invitation.message} /></p>` : null}
    ${pending
      ? html`<p class="my-deadline"><time datetime=${invitation.expires_at}>${answerWithin(invitation.expires_at)}</time></p>
          <${AnswerButtons} invitation=${invitation} onAnswered=${onAnswered} />`
      : html`<p class="my-status">${STATUS_WORDS[invitation.status] || invitation.status}</p>`}
    ${pending || invitation.status === "accepted" ? html`<p><a href=${gigPath}>The gig: lineup and run sheet</a></p>` : null}
  </div>`;
}

export default function MyInvitation({ params }) {
  const { api } = useConsole();
  const [outcome, setOutcome] = useState(null);
  const found = useLoad(() => api.get("/me/invitations", { "filter[id]": params.id }), [params.id]);
  const invitation = found.answer && found.answer.data[0];
  useEffect(() => {
    if (invitation) document.title = pageTitle(`Invitation: ${invitation.gig.title}`);
  }, [invitation && invitation.id]);
  const onAnswered = (said) => {
    setOutcome(said);
    found.reload();
  };
  return html`<section class="screen my-invitation-screen">
    <p class="my-back"><a href="/my">← My gigs</a></p>
    <h1>${invitation ? html`Invitation: <${Text} value=${invitation.gig.title} />` : "Invitation"}</h1>
    <${Outcome} outcome=${outcome} />
    <${ErrorMessage} error=${found.error} />
    ${!found.answer && !found.error ? html`<${Loading} />` : null}
    ${found.answer && !invitation ? html`<p>None of your invitations has this address.</p>` : null}
    ${invitation ? html`<${Invitation} invitation=${invitation} onAnswered=${onAnswered} />` : null}
  </section>`;
}
