// The one way a screen loads what it shows: useLoad asks once the screen is drawn (in a layout effect: before the
// browser paints, never while rendering), again on reload() (after a write that changes it, or "retry" after a
// failure), the last answer kept on screen meanwhile. update(change) replaces the kept answer
// by change(answer) without asking again, when a write's own answer says what changed. `keep` names an answer
// asked at most once a page load (the office's statuses, the OpenAPI document): every screen that names it shares
// it, and a failure is forgotten so that the next screen asks again.
//
//   const { api } = useConsole();
//   const gigs = useLoad(({ signal }) => api.get("/me/gigs", { limit }, { signal }), [limit]);
//   gigs.answer (null until the first), gigs.error, gigs.loading, gigs.update((answer) => ...),
//   gigs.reload() (a promise, settled once the new answer is in)
//   const statuses = useLoad(() => api.get("/gig-statuses"), [], { keep: "gig-statuses" });
//   const rates = useOnOpen(() => api.get("/staff-member-product-rates")); <details onToggle=${rates.onToggle}>
//
// load({signal, answer}) gets the request's AbortSignal (aborted when the question changes or the screen goes)
// and the answer kept so far (a list shown a page at a time adds the next page to it).
// With `fresh`, the answer to an earlier question (another period, another search) is not shown while the new one
// is asked: answer is null, as at first. With `wait` (ms), it is asked once the question has stayed the same that
// long (what is typed in a search box: once typing pauses, never per key).

import { useLayoutEffect, useRef, useState } from "./lib.js";

const keptAnswers = new Map(); // name -> {promise, answer}, for the page load

/** The answer `name` names, asked by `load()` the first time only; a failure is not kept. */
function kept(name, load) {
  if (!keptAnswers.has(name)) {
    const entry = { answer: undefined };
    entry.promise = load().then(
      (answer) => (entry.answer = answer),
      (error) => {
        keptAnswers.delete(name);
        throw error;
      },
    );
    keptAnswers.set(name, entry);
  }
  return keptAnswers.get(name).promise;
}

function keptAnswer(name) {
  const entry = name ? keptAnswers.get(name) : null;
  return entry && entry.answer !== undefined ? entry.answer : null;
}

/** Resolves once `ms` have passed; rejects as an abort does when `signal` aborts first. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("The question changed.", "AbortError"));
    });
  });
}

const sameQuestion = (one, other) => one.length === other.length && one.every((value, i) => Object.is(value, other[i]));

export function useLoad(load, deps, { keep, fresh = false, wait = 0 } = {}) {
  const [round, setRound] = useState(0);
  const [state, setState] = useState(() => ({ answer: keptAnswer(keep), error: null, loading: keptAnswer(keep) === null }));
  const answer = useRef(state.answer);
  answer.current = state.answer;
  const waiting = useRef([]); // reload()'s promises, settled with the answer that follows
  useLayoutEffect(() => {
    const control = new AbortController();
    const settled = waiting.current.splice(0);
    const settle = () => settled.forEach((resolve) => resolve());
    const asked = async () => load({ signal: control.signal, answer: answer.current });
    const ask = wait ? () => pause(wait, control.signal).then(asked) : asked;
    if (keptAnswer(keep) === null) setState((before) => (before.loading ? before : { ...before, loading: true }));
    (keep ? kept(keep, ask) : ask()).then(
      (next) => control.signal.aborted || setState({ answer: next, error: null, loading: false, question: deps }),
      (error) => control.signal.aborted || error.name === "AbortError" || setState((before) => ({ ...before, error, loading: false, question: deps })),
    ).finally(settle);
    return () => control.abort();
  }, [...deps, round]);
  const stale = fresh && state.question && !sameQuestion(state.question, deps);
  return {
    answer: stale ? null : state.answer,
    error: stale ? null : state.error,
    loading: state.loading || stale,
    reload: () => new Promise((resolve) => {
      waiting.current.push(resolve);
      setRound((n) => n + 1);
    }),
    update: (change) => setState((before) => ({ ...before, answer: change(before.answer), error: null })),
  };
}

/** useLoad for a <details> section: asked the first time it is opened (onToggle goes on the <details>). */
export function useOnOpen(load) {
  const [opened, setOpened] = useState(false);
  const found = useLoad(() => (opened ? load() : Promise.resolve(null)), [opened]);
  const onToggle = (event) => event.target.open && setOpened(true);
  return { opened, answer: found.answer, error: found.error, reload: found.reload, onToggle };
}

/** What a write said when it failed, shown where it was asked: run(write) forgets the last failure, awaits write()
 * and keeps what it threw; it resolves true when the write succeeded. `busy` while a write is under way.
 *
 *   const adding = useWrite();
 *   const add = () => adding.run(async () => { await api.post("/gig-contacts", body); onAdded(); });
 *   <${SaveError} error=${adding.error} id="add-contact-error" /> */
export function useWrite() {
  const [state, setState] = useState({ error: null, busy: false });
  const run = async (write) => {
    setState({ error: null, busy: true });
    try {
      await write();
      setState({ error: null, busy: false });
      return true;
    } catch (error) {
      setState({ error, busy: false });
      return false;
    }
  };
  return { ...state, run };
}
