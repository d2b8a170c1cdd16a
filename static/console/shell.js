// The frame around every screen (SPEC §12): the side menu (a top bar with a menu button below 768 px), the
// search, the user with sign-out, the "Retrying…" strip, the keyboard shortcuts, and the screen the path names
// (SCREENS in screens.js), given {params, query} (`api` and `me` it takes from useConsole, context.js). On the
// musician's pages (SPEC §13) their tab bar (my_tabs.js); while the app shows the service worker's kept copy, the
// "Offline — as of 14:02" strip.

import { onRetrying } from "./api.js";
import { ErrorMessage } from "./components/index.js";
import { useConsole } from "./context.js";
import { clockTime, date, isoDay, officeName, pageTitle } from "./format.js";
import { KeysDialog, listenForKeys } from "./keys.js";
import { html, useEffect, useRef, useState } from "./lib.js";
import { doesOfficeWork, isLinkedToMember } from "./me.js";
import { isCurrent, menuOf } from "./menu.js";
import { useModule } from "./modules.js";
import { MyTabs, isMyPage } from "./my_tabs.js";
import { useOffline } from "./offline.js";
import { forgetThisPhone } from "./phone_push.js";
import { match } from "./router.js";
import { SCREENS } from "./screens.js";
import NotFound from "./screens/not_found.js";
import { Search } from "./search.js";
import { forgetSession } from "./session.js";

function Menu({ ownPages, path, open }) {
  const { me, office } = useConsole();
  const entries = menuOf(me, ownPages);
  const link = (entry) => html`<li class=${entry.own ? "own" : null}>
    <a href=${entry.path} aria-current=${isCurrent(entry, path) ? "page" : null}>${entry.label}</a>
  </li>`;
  return html`<nav id="menu" class=${open ? "menu open" : "menu"} aria-label="Main menu">
    <a class="brand" href="/">${officeName(office)}</a>
    <ul>${entries.map(link)}</ul>
  </nav>`;
}

async function signOut(api) {
  try {
    await forgetThisPhone(api);
    await api.post("/auth/signout");
  } finally {
    await forgetSession();
    location.assign("/signin");
  }
}

function UserMenu() {
  const { api, me } = useConsole();
  return html`<div class="user">
    <span class="user-name">${me.name || me.email}</span>
    <button type="button" class="quiet" onClick=${() => signOut(api)}>Sign out</button>
  </div>`;
}

function RetryStrip() {
  const [retrying, setRetrying] = useState(false);
  useEffect(() => onRetrying(setRetrying), []);
  return html`<div class="retrying" role="status">${retrying ? "Retrying…" : ""}</div>`;
}

/** "14:02", or "Wed 25 Nov, 14:02" when not today: when the copy shown was fetched, on the office's clock. */
function asOfWords(asOf) {
  const clock = clockTime(asOf);
  if (asOf.toDateString() === new Date().toDateString()) return clock;
  return `${date(isoDay(asOf), { weekday: "short", day: "numeric", month: "short" })}, ${clock}`;
}

function OfflineStrip() {
  const { offline, asOf } = useOffline();
  const words = offline ? `Offline${asOf && !isNaN(asOf) ? ` — as of ${asOfWords(asOf)}` : ""}` : "";
  return html`<p class="offline-strip" role="status">${words}</p>`;
}

/** Whether "My gigs" is the user's: always for a user without office work (it is their home), else when a staff
 * member is linked to them (GET /me says). */
function useOwnPages() {
  const { me } = useConsole();
  return !doesOfficeWork(me) || isLinkedToMember(me);
}

/** The screen `path` names (null while its module loads) and its params; a module that cannot be loaded (the
 * server unreachable) is said in words. */
function useScreen(path) {
  const found = match(SCREENS, path);
  const { module, failure } = useModule(found ? `screen:${found.route.pattern}` : null, () => found.route.load());
  if (!found) return { Screen: NotFound, params: {} };
  if (failure && !module) {
    const error = new Error("This screen could not be loaded: is the band office's server reachable?");
    return { Screen: () => html`<h1>Not loaded</h1><${ErrorMessage} error=${error} />`, params: {} };
  }
  return { Screen: module ? module.default : null, params: found.params };
}

function focusHeading(heading) {
  heading.setAttribute("tabindex", "-1");
  heading.focus();
}

/** After a navigation, the focus goes to the new screen's heading and the tab takes its name. A screen that draws
 * a heading of its own once loaded ("Gig", then the gig's date and title) takes the focus to the new one, as long
 * as the focus fell to the page's body with the old one. */
function useFocusOnHeading(main, path, Screen) {
  const first = useRef(true);
  useEffect(() => {
    const heading = Screen && main.current.querySelector("h1");
    if (!heading) return;
    document.title = pageTitle(heading.textContent);
    if (first.current) return void (first.current = false);
    focusHeading(heading);
    const follow = new MutationObserver(() => {
      const now = main.current && main.current.querySelector("h1");
      if (now && (document.activeElement === document.body || !document.activeElement)) focusHeading(now);
    });
    follow.observe(main.current, { childList: true, subtree: true });
    const within = main.current;
    const moved = (event) => event.target.tagName !== "H1" && stop();
    const stop = () => {
      follow.disconnect();
      within.removeEventListener("focusin", moved);
    };
    within.addEventListener("focusin", moved);
    return stop;
  }, [path, Screen]);
}

export function Shell({ location }) {
  const { me, office } = useConsole();
  const [menuOpen, setMenuOpen] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  const main = useRef(null);
  const searchBox = useRef(null);
  const ownPages = useOwnPages();
  const entries = useRef(null);
  entries.current = menuOf(me, ownPages);
  const { Screen, params } = useScreen(location.path);
  const withTabs = isMyPage(location.path);
  useFocusOnHeading(main, location.path, Screen);
  useEffect(() => setMenuOpen(false), [location.path]);
  useEffect(
    () => listenForKeys({ entries: () => entries.current, focusSearch: () => searchBox.current?.focus(), onHelp: () => setKeysOpen(true) }),
    [],
  );
  return html`<a class="skip" href="#main">Skip to the content</a>
    <div class=${withTabs ? "frame with-tabs" : "frame"}>
      <${Menu} ownPages=${ownPages} path=${location.path} open=${menuOpen} />
      <header class="topbar">
        <button type="button" class="menu-button quiet" aria-controls="menu" aria-expanded=${menuOpen ? "true" : "false"}
          onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>
        <a class="brand" href="/">${officeName(office)}</a>
        <${Search} inputRef=${searchBox} />
        <${UserMenu} />
      </header>
      ${withTabs ? html`<${MyTabs} path=${location.path} />` : null}
      <main id="main" ref=${main} tabindex="-1">
        <${OfflineStrip} />
        ${Screen ? html`<${Screen} key=${location.path} params=${params} query=${location.query} />` : null}
      </main>
    </div>
    <${RetryStrip} />
    <${KeysDialog} open=${keysOpen} entries=${entries.current} onClose=${() => setKeysOpen(false)} />`;
}
