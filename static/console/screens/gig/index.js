// Gig page (SPEC §12, screen 2): the header (back to the agenda, date · title, venue and times, the status with
// its change control and the counts) over the tabs of tabs.js, the open one kept in the URL as ?tab=. Other
// people's changes to the gig arrive within 30 s (useFollow) and are shown without a reload.

import { ApiError } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/index.js";
import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { date, timeRange } from "../../format.js";
import { Happened, useTold } from "../../happened.js";
import { html } from "../../lib.js";
import { useLoad } from "../../load.js";
import { can } from "../../me.js";
import { useModule } from "../../modules.js";
import { agendaMonthPath, gigPath } from "../../paths.js";
import { FromCouple } from "./from_couple.js";
import { StatusControl } from "./status.js";
import { tabsFor } from "./tabs.js";

export const GIG_EXPAND = "gig_status,venue,gig_type";

function useGig(id) {
  const { api } = useConsole();
  const found = useLoad(({ signal }) => api.get(`/gigs/${encodeURIComponent(id)}`, { expand: GIG_EXPAND }, { signal }), [id]);
  useFollow({ gig_id: id }, () => found.reload(), [id]);
  return { gig: found.answer && found.answer.data, error: found.error, reload: found.reload };
}

function useTab(tab) {
  const { module, failure } = useModule(`gig-tab:${tab.id}`, () => tab.load());
  const error = failure && new ApiError(0, "not_loaded", `The ${tab.label} tab could not be loaded. Reload the page to try again.`);
  return { Tab: module ? module.default : null, error };
}

function agendaOf(gig) {
  return agendaMonthPath(gig.gig_date.slice(0, 7));
}

function Counts({ gig }) {
  const words = [
    `${gig.role_count} ${gig.role_count === 1 ? "role" : "roles"}`,
    `${gig.open_role_count} open`,
    `${gig.pending_invitation_count} pending ${gig.pending_invitation_count === 1 ? "invitation" : "invitations"}`,
  ];
  return html`<p class="gig-counts">${words.join(" · ")}</p>`;
}

function Header({ gig, reload, told }) {
  const { me } = useConsole();
  const venue = gig.venue ? [gig.venue.name, gig.venue.city].filter(Boolean).join(", ") : "No venue yet";
  return html`<header class="gig-header">
    <a class="back" href=${agendaOf(gig)}>‹ Agenda</a>
    <h1>${date(gig.gig_date)} · ${gig.title}</h1>
    ${told ? html`<${Happened} words=${told} />` : null}
    <p class="gig-where">${[venue, timeRange(gig.start_time, gig.end_time)].filter(Boolean).join(" · ")}</p>
    <div class="gig-state">
      <${StatusControl} gig=${gig} editable=${can(me, "gigs.edit")} reload=${reload} />
      <${Counts} gig=${gig} />
    </div>
  </header>`;
}

function Tabs({ tabs, current, id }) {
  return html`<nav class="gig-tabs" aria-label="Parts of the gig">
    ${tabs.map(
      (tab) => html`<a href=${gigPath(id, tab.id)}
        aria-current=${tab.id === current.id ? "page" : undefined}>${tab.label}</a>`,
    )}
  </nav>`;
}

function OpenTab({ tab, gig, reload }) {
  const { Tab, error } = useTab(tab);
  if (error) return html`<${ErrorMessage} error=${error} />`;
  if (!Tab) return html`<${Loading} />`;
  return html`<${Tab} gig=${gig} reload=${reload} />`;
}

export default function GigPage({ params, query }) {
  const { me } = useConsole();
  const { gig, error, reload } = useGig(params.id);
  const told = useTold();
  const tabs = tabsFor(me);
  const tab = tabs.find((one) => one.id === query.tab) || tabs[0];
  if (error) {
    const missing = error.status === 404;
    return html`<section class="screen gig">
      <h1>${missing ? "No such gig" : "The gig could not be shown"}</h1>
      ${missing ? html`<p>It may have been deleted. <a href="/agenda">Back to the agenda</a></p>` : html`<${ErrorMessage} error=${error} />`}
    </section>`;
  }
  if (!gig) return html`<section class="screen gig"><h1>Gig</h1><${Loading} /></section>`;
  return html`<section class="screen gig">
    <${Header} gig=${gig} reload=${reload} told=${told} />
    ${can(me, "gigs.view") ? html`<${FromCouple} gig=${gig} />` : null}
    <${Tabs} tabs=${tabs} current=${tab} id=${gig.id} />
    <div class="gig-tab" id="gig-tab">
      <${OpenTab} key=${tab.id} tab=${tab} gig=${gig} reload=${reload} />
    </div>
  </section>`;
}
