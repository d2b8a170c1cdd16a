// What every screen and component reaches the same way: `api` (api.js), `me` (who is signed in, GET /me) and
// `office` (its name, zone, currency, language, date style and clock: GET /office), given once by the console's
// start (main.js) to everything it draws.
//
//   const { api, me, office } = useConsole();
//
// `api` is one object for the page (api.js's export, handed over by main.js). The few module-level services that
// live outside any component, and so cannot use the context, import that same singleton: main.js (which gives it
// here), me.js's loadMe (GET /me, asked before anything is drawn), follow.js (one poller of GET /events shared by
// every subscriber, running between renders) and my_tabs.js's unread count (refreshUnreadCount() is called from
// anywhere, and its count shared by the tab bar and the inbox). Everything else takes it from useConsole().

import { DEFAULT_OFFICE, followOffice } from "./format.js";
import { createContext, html, useContext, useMemo } from "./lib.js";

const ConsoleContext = createContext(null);

const KEPT_OFFICE = "band-office.office";

/** GET /office, asked once after sign-in (beside GET /me: `me` is its promise); every format (format.js) follows
 * it from then on. When it cannot be had (a server without it, the phone offline) the copy kept from the last
 * answer, else the defaults with the currency /me names. */
export async function loadOffice(api, me) {
  let office;
  try {
    office = (await api.get("/office")).data;
    localStorage.setItem(KEPT_OFFICE, JSON.stringify(office));
  } catch (error) {
    const kept = localStorage.getItem(KEPT_OFFICE);
    const currency = ((await me).office || {}).currency;
    office = kept ? JSON.parse(kept) : { currency: currency || DEFAULT_OFFICE.currency };
  }
  const whole = { ...DEFAULT_OFFICE, ...office };
  followOffice(whole);
  return whole;
}

export function ConsoleProvider({ api, me, office, children }) {
  const value = useMemo(() => ({ api, me, office }), [api, me, office]);
  return html`<${ConsoleContext.Provider} value=${value}>${children}</${ConsoleContext.Provider}>`;
}

export function useConsole() {
  return useContext(ConsoleContext);
}
