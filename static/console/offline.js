// Whether the console is showing what the service worker kept because the server cannot be reached (SPEC §13),
// and as of when. The service worker answers a GET it cannot send with the copy it kept, marked with the
// `Band-Kept-At` header (when that copy was fetched, ISO 8601); api.js hands every answer to noteAnswer().
// Screens read useOffline() and show no write control while `offline` (the app is read only then).
//
//   const { offline, asOf } = useOffline();
//   ${offline ? null : html`<button ...>Accept</button>`}

import { useEffect, useState } from "./lib.js";

export const KEPT_AT_HEADER = "Band-Kept-At";

let state = { offline: false, asOf: null };
const listeners = new Set();

function change(next) {
  if (next.offline === state.offline && String(next.asOf) === String(state.asOf)) return;
  state = next;
  listeners.forEach((listener) => listener(state));
}

/** An answer came: from the server (online again) or from the service worker's copy (offline, as of its time). */
export function noteAnswer(response) {
  const keptAt = response.headers.get(KEPT_AT_HEADER);
  if (keptAt) {
    const asOf = new Date(keptAt);
    const oldest = state.offline && state.asOf && state.asOf < asOf ? state.asOf : asOf;
    change({ offline: true, asOf: oldest });
  } else {
    change({ offline: false, asOf: null });
  }
}

export function isOffline() {
  return state.offline;
}

/** {offline, asOf} now and after every change, for a component's lifetime. */
export function useOffline() {
  const [now, setNow] = useState(state);
  useEffect(() => {
    listeners.add(setNow);
    setNow(state);
    return () => listeners.delete(setNow);
  }, []);
  return now;
}
