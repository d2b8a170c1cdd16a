// What every screen and component reaches the same way: `api` (api.js) and `me` (who is signed in, GET /me),
// given once by the console's start (main.js) to everything it draws.
//
//   const { api, me } = useConsole();

import { createContext, html, useContext, useMemo } from "./lib.js";

const ConsoleContext = createContext(null);

export function ConsoleProvider({ api, me, children }) {
  const value = useMemo(() => ({ api, me }), [api, me]);
  return html`<${ConsoleContext.Provider} value=${value}>${children}</${ConsoleContext.Provider}>`;
}

export function useConsole() {
  return useContext(ConsoleContext);
}
