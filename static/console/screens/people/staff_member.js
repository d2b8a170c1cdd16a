// A staff member (SPEC §12, screen 4): their fields edited in place (people.edit), the roles they play and their
// upcoming gigs (three API calls), following others' changes to their fields; their pay rates (pay.view), blockouts and calendar link load when their section
// is opened.

import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { date, isoDay, timeRange } from "../../format.js";
import { Happened, useTold } from "../../happened.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { recordPath } from "../../paths.js";
import { fullName } from "./index.js";
import { PersonFields } from "./person_fields.js";
import { SignInLater } from "./sign_in_later.js";
import { Blockouts } from "./staff_member_blockouts.js";
import { CalendarLink, PayRates } from "./staff_member_more.js";


function load(api, id) {
  return Promise.all([
    api.get(`/staff-members/${encodeURIComponent(id)}`),
    api.get("/staff-member-roles", { "filter[staff_member_id]": id, expand: "role", limit: 200 }),
    api.get("/gig-roles", {
      "filter[staff_member_id]": id,
      "filter[gig.gig_date][gte]": isoDay(),
      sort: "gig.gig_date,gig.start_time",
      expand: "gig,role",
      fields: "id,call_time,gig,role",
      limit: 20,
    }),
  ]);
}

const FIELDS = [
  ["First name", "first_name"],
  ["Last name", "last_name"],
  ["E-mail", "email", "email"],
  ["Phone", "phone", "tel"],
  ["Notes", "notes", "textarea"],
  ["Active", "active", "checkbox"],
];

function Roles({ roles }) {
  if (roles.data.length === 0) return html`<p>No roles yet.</p>`;
  return html`<ul class="plain-list">
    ${roles.data.map(
      (held) => html`<li key=${held.id}>${held.role ? held.role.name : "A role"}${held.is_primary ? html` <span class="badge">main</span>` : null}</li>`,
    )}
  </ul>`;
}

function UpcomingGigs({ gigRoles }) {
  if (gigRoles.data.length === 0) return html`<p>No upcoming gigs.</p>`;
  return html`<ul class="upcoming-gigs">
    ${gigRoles.data.map(
      (gigRole) => html`<li key=${gigRole.id}>
        <span class="gig-date">${gigRole.gig ? date(gigRole.gig.gig_date) : ""}</span>
        ${gigRole.gig ? html`<a href=${recordPath("gigs", gigRole.gig.id)}>${gigRole.gig.title}</a>` : null}
        <span class="muted">${[gigRole.role && gigRole.role.name, timeRange(gigRole.gig && gigRole.gig.start_time, gigRole.gig && gigRole.gig.end_time)]
          .filter(Boolean)
          .join(" · ")}</span>
      </li>`,
    )}
  </ul>
  ${gigRoles.meta.total > gigRoles.data.length ? html`<p class="more">The next ${gigRoles.data.length} of ${gigRoles.meta.total}.</p>` : null}`;
}

export default function StaffMember({ params }) {
  const { api, me } = useConsole();
  const told = useTold();
  const found = useLoad(async () => {
    const [member, roles, gigRoles] = await load(api, params.id);
    return { member: member.data, roles, gigRoles };
  }, [params.id]);
  const { answer: loaded, error } = found;
  const path = `/staff-members/${encodeURIComponent(params.id)}`;
  const onSaved = (saved) => found.update((before) => before && { ...before, member: saved });
  // another person's change to the member's fields shows within the poll's interval (SPEC §12)
  useFollow({ subject_collection: "staff_members", subject_id: params.id }, () => api.get(path).then((answer) => onSaved(answer.data)), [params.id]);
  const member = loaded && loaded.member;
  const canEdit = can(me, "people.edit");
  return html`<section class="screen person">
    <header class="screen-header">
      <h1>${member ? fullName(member) : error ? "Staff member not found" : "Staff member"}</h1>
      ${member && !member.active ? html`<span class="badge">inactive</span>` : null}
    </header>
    ${told ? html`<${Happened} words=${told} />` : null}
    <p class="back no-print"><a href="/people">All people</a></p>
    <${ErrorMessage} error=${error} />
    ${!loaded && !error ? html`<${Loading} />` : null}
    ${loaded
      ? html`<section aria-labelledby="details-heading"><h2 id="details-heading">Details</h2>
            <${PersonFields} fields=${FIELDS} record=${member} path=${path} onSaved=${onSaved} /></section>
          <${SignInLater} member=${member} onSaved=${onSaved} />
          <section aria-labelledby="roles-heading"><h2 id="roles-heading">Roles</h2><${Roles} roles=${loaded.roles} /></section>
          <section aria-labelledby="upcoming-heading"><h2 id="upcoming-heading">Upcoming gigs</h2>
            <${UpcomingGigs} gigRoles=${loaded.gigRoles} /></section>
          ${can(me, "pay.view") ? html`<${PayRates} member=${member} />` : null}
          <${Blockouts} member=${member} canEdit=${canEdit} />
          <${CalendarLink} member=${member} canEdit=${canEdit} />`
      : null}
  </section>`;
}
