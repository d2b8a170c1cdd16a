// The console's side of the service worker (/sw.js, SPEC §13): registered where the browser offers service workers
// (HTTPS or localhost; on plain HTTP over the LAN it does not, and the console works as it did, without offline).
//
//   registerWorker()                 once, at start
//   noteAsked(url, authorization)    every GET of JSON the page sends (api.js)
//   await forgetKeptPages()          on sign-out: the answers the worker kept for this user are forgotten
//
// On the first visit the page starts before the worker is active, and the worker sees none of its requests until
// it takes control (sw/cache.js claims the pages open): the GETs asked until then are handed to it, to be fetched
// again and kept, so that what the first visit showed opens with no connection too.

const SCRIPT = "/sw.js";
const FORGET_WAIT_MS = 3000;
const unseen = new Map(); // URL -> Authorization: the GETs the worker did not see (none once it controls the page)
const UNSEEN_LIMIT = 100; // a first visit asks a handful; a browser that never lets the worker in asks on and on

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("controllerchange", handOverUnseen);
  navigator.serviceWorker.register(SCRIPT, { scope: "/" }).catch((error) => {
    console.warn(`The band office works without offline use here: ${error.message}`);
  });
}

export function noteAsked(url, authorization) {
  if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller || unseen.size >= UNSEEN_LIMIT) return;
  unseen.set(url, authorization);
}

function handOverUnseen() {
  const worker = navigator.serviceWorker.controller;
  if (worker && unseen.size > 0) {
    worker.postMessage({ keep: [...unseen].map(([url, authorization]) => ({ url, authorization })) });
  }
  unseen.clear();
}

/** Resolves once the worker has forgotten what it kept (or at once with no worker; after FORGET_WAIT_MS at most). */
export async function forgetKeptPages() {
  unseen.clear();
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration("/");
  const worker = registration && registration.active;
  if (!worker) return;
  await new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    setTimeout(resolve, FORGET_WAIT_MS);
    worker.postMessage({ forget: "kept" }, [channel.port2]);
  });
}
