// The console's start: no session -> sign in; else who is signed in (GET /me), then the shell, which shows the
// screen the address names. "/" leads to the first screen of the user's menu.

import { ErrorMessage } from "./components.js";
import { html, render } from "./lib.js";
import { loadMe } from "./me.js";
import { homePath, isCurrent, MENU } from "./menu.js";
import { interceptLinks, match, navigate, useLocation } from "./router.js";
import { SCREENS } from "./screens.js";
import { Shell } from "./shell.js";

function Console({ me }) {
  const location = useLocation();
  return html`<${Shell} me=${me} location=${location} />`;
}

const consoleShows = (path) => path === "/" || Boolean(match(SCREENS, path)) || MENU.some((entry) => isCurrent(entry, path));

async function start(root) {
  try {
    const me = await loadMe();
    interceptLinks(consoleShows);
    if (location.pathname === "/" && homePath(me)) navigate(homePath(me) + location.search, { replace: true });
    root.replaceChildren();
    render(html`<${Console} me=${me} />`, root);
  } catch (error) {
    root.replaceChildren();
    render(html`<main id="main"><h1>The band office cannot start</h1><${ErrorMessage} error=${error} /></main>`, root);
  }
}

start(document.getElementById("console"));
