// "Let them sign in" (SPEC §12.1) on a staff member's page with people.edit, while no user is linked to them:
// POST /staff-members/{id}/sign-in makes their sign-in and mails them a welcome with its link.

import { SaveError } from "../../components/save_error.js";
import { useConsole } from "../../context.js";
import { Happened } from "../../happened.js";
import { html, useState } from "../../lib.js";
import { useWrite } from "../../load.js";
import { can } from "../../me.js";

export function SignInLater({ member, onSaved }) {
  const { api, me } = useConsole();
  const { error, busy, run } = useWrite();
  const [said, setSaid] = useState(null);
  if (!can(me, "people.edit") || (member.user_id && !said)) return null;
  const letThem = () =>
    run(async () => {
      const saved = (await api.post(`/staff-members/${encodeURIComponent(member.id)}/sign-in`)).data;
      setSaid(`${saved.first_name} can sign in now: a welcome mail with a sign-in link is on its way to ${saved.email}.`);
      onSaved(saved);
      document.getElementById("sign-in-said").focus();
    });
  return html`<section aria-labelledby="sign-in-heading">
    <h2 id="sign-in-heading">Signing in</h2>
    <${Happened} words=${said} id="sign-in-said" />
    ${said
      ? null
      : html`<p>${member.first_name} cannot sign in yet. With a sign-in they see their gigs, answer invitations and read their pay.</p>
          <button type="button" disabled=${busy} onClick=${letThem}>Let them sign in</button>`}
    <${SaveError} error=${error} id="sign-in-error" />
  </section>`;
}
