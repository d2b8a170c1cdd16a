// The console's start: no session -> sign in; else who is signed in (GET /me), then the shell, which shows the
// screen the address names. "/" leads to the user's home (menu.js, homePath).

import { api } from "./api.js";
import { ErrorMessage } from "./components/index.js";
import { ConsoleProvider, loadOffice, useConsole } from "./context.js";
import { html, render, useEffect } from "./lib.js";
import { loadMe } from "./me.js";
import { homePath, isCurrent, MENU } from "./menu.js";
import { interceptLinks, match, navigate, useLocation } from "./router.js";
import { SCREENS } from "./screens.js";
import { Shell } from "./shell.js";
import { registerWorker } from "./service_worker.js";

/** The shell at the current address; "/" (the brand's link, the server's root) becomes the user's home. */
function Console() {
  const { me } = useConsole();
  const location = useLocation();
  const home = location.path === "/" ? homePath(me) : null;
  useEffect(() => {
    if (home) navigate(home + window.location.search, { replace: true });
  }, [home]);
  return home ? null : html`<${Shell} location=${location} />`;
}

const consoleShows = (path) => path === "/" || Boolean(match(SCREENS, path)) || MENU.some((entry) => isCurrent(entry, path));

async function start(root) {
  try {
    const asked = loadMe();
    const [me, office] = await Promise.all([asked, loadOffice(api, asked)]);
    interceptLinks(consoleShows);
    root.replaceChildren();
    render(html`<${ConsoleProvider} api=${api} me=${me} office=${office}><${Console} /></${ConsoleProvider}>`, root);
  } catch (error) {
    root.replaceChildren();
    render(html`<main id="main"><h1>The band office cannot start</h1><${ErrorMessage} error=${error} /></main>`, root);
  }
}

registerWorker();
start(document.getElementById("console"));
