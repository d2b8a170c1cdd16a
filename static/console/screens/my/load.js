// One answer of the API for a musician's screen: asked while the screen is first drawn (Preact runs effects after
// the next paint, and a phone paints late), asked again by reload() (after a write that changes it), the last
// answer kept on screen meanwhile. update(change) replaces the kept answer by change(answer) without asking again,
// when a write's own answer says what changed. A screen whose question changes with its address (a period, an id)
// and must not show the last question's answer meanwhile draws its part under a `key` of that question instead.
//
//   const gigs = useLoad(() => api.get("/me/gigs", {limit: 30}), [limit]);
//   gigs.answer (null until the first), gigs.error, gigs.reload(), gigs.update((answer) => ({...answer, data}))

import { useEffect, useMemo, useState } from "../../lib.js";

export function useLoad(load, deps) {
  const [round, setRound] = useState(0);
  const [state, setState] = useState({ answer: null, error: null });
  const asked = useMemo(() => {
    const promise = load();
    promise.catch(() => {}); // handled in the effect below, which may run after it fails
    return promise;
  }, [...deps, round]);
  useEffect(() => {
    let current = true;
    asked.then(
      (answer) => current && setState({ answer, error: null }),
      (error) => current && setState((before) => ({ answer: before.answer, error })),
    );
    return () => (current = false);
  }, [asked]);
  return {
    ...state,
    reload: () => setRound((n) => n + 1),
    update: (change) => setState((before) => ({ answer: change(before.answer), error: null })),
  };
}
