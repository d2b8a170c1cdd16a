// What every screen and component reaches the same way: `api` (api.js) and `me` (who is signed in, GET /me),
// given once by the console's start (main.js) to everything it draws.
//
//   const { api, me } = useConsole();
//
// `api` is one object for the page (api.js's export, handed over by main.js). The few module-level services that
// live outside any component, and so cannot use the context, import that same singleton: main.js (which gives it
// here), me.js's loadMe (GET /me, asked before anything is drawn), follow.js (one poller of GET /events shared by
// every subscriber, running between renders) and my_tabs.js's unread count (refreshUnreadCount() is called from
// anywhere, and its count shared by the tab bar and the inbox). Everything else takes it from useConsole().

import { createContext, html, useContext, useMemo } from "./lib.js";

const ConsoleContext = createContext(null);

export function ConsoleProvider({ api, me, children }) {
  const value = useMemo(() => ({ api, me }), [api, me]);
  return html`<${ConsoleContext.Provider} value=${value}>${children}</${ConsoleContext.Provider}>`;
}

export function useConsole() {
  return useContext(ConsoleContext);
}
