// Following other people's changes (SPEC §12: within 30 s, without reloading) by polling GET /v1/events.
//
//   import { follow, useFollow } from "../follow.js";
//   const stop = follow({ gig_id: id }, (events) => reload());            // a gig and all that belongs to it
//   follow({ subject_collection: "venues", subject_id: id }, listener);   // one record
//   follow({}, listener);                                                 // everything the user may see
//   useFollow({ gig_id: id }, () => reload(), [id]);                      // the same in a component
//
// A listener gets the new events that match (oldest first, as GET /events shows them: seq, type, actor,
// subject {collection, id}, gig_id, changes, ...). One poller serves every subscriber: it asks every
// POLL_MS for events after the newest it has seen, only while the page is visible (at once when it becomes
// visible again), and stops when nobody follows. The user's own changes come back too: a listener that
// reloads what it shows can ignore that.

import { api } from "./api.js";
import { useEffect } from "./lib.js";

export const POLL_MS = 10000;
const PAGE = 200;
const subscribers = new Set();
let lastSeq = null;
let timer = null;
let polling = false;

function matches(filter, event) {
  if (filter.gig_id && event.gig_id !== filter.gig_id) return false;
  if (filter.subject_collection && event.subject.collection !== filter.subject_collection) return false;
  if (filter.subject_id && event.subject.id !== filter.subject_id) return false;
  return true;
}

async function newestSeq() {
  const { data } = await api.get("/events", { limit: 1, fields: "seq" });
  return data.length ? data[0].seq : 0;
}

async function newEvents() {
  const { data } = await api.get("/events", { "filter[seq][gt]": lastSeq, sort: "seq", limit: PAGE });
  if (data.length) lastSeq = data[data.length - 1].seq;
  return data;
}

function deliver(events) {
  for (const { filter, listener } of subscribers) {
    const theirs = events.filter((event) => matches(filter, event));
    if (theirs.length) listener(theirs);
  }
}

async function poll() {
  if (polling || !subscribers.size || document.hidden) return;
  polling = true;
  try {
    if (lastSeq === null) lastSeq = await newestSeq();
    else deliver(await newEvents());
  } catch {
    // a failed poll is tried again at the next tick (the api helper already retried a 503)
  } finally {
    polling = false;
  }
}

function start() {
  poll();
  timer = setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
}

function stop() {
  clearInterval(timer);
  document.removeEventListener("visibilitychange", poll);
  timer = null;
  lastSeq = null;
}

/** Call listener(events) with the new events matching `filter`; returns the function that stops it. */
export function follow(filter, listener) {
  const subscriber = { filter, listener };
  subscribers.add(subscriber);
  if (timer === null) start();
  return () => {
    subscribers.delete(subscriber);
    if (!subscribers.size) stop();
  };
}

/** follow() for a component's lifetime; `deps` as useEffect's (the filter's values, usually). */
export function useFollow(filter, listener, deps) {
  useEffect(() => follow(filter, listener), deps);
}
