// The app shell and the last-loaded pages (SPEC §13): with no connection the console opens and shows what it last
// loaded, "as of" then, read only; what one user's pages showed is kept for that user alone (SPEC §2.3).
// - Install: the page and every file of the static tree of the current digest (SHELL, the head /sw.js is written
//   with) are kept; a new version (any change to them) installs and takes over at once (claiming the pages already
//   open, the first visit's included), its old shell forgotten.
// - A console path opened (a navigation): the network first, the kept page when it cannot be reached.
// - /static/<digest>/...: the kept file, else the network (their URLs change with their contents).
// - GET /v1/me and /v1/me/... with a bearer: the network first, the answer kept per URL in a cache of that bearer's
//   own (named by its SHA-256: the bearer itself is never written down); when the network fails the copy kept for
//   that same bearer is answered, marked `Band-Kept-At: <when it was asked>` (static/console/offline.js reads
//   it). Another bearer, or none, never gets it. Writes pass through: never kept, never answered from here.
// - A message {keep: [{url, authorization}]} (static/console/service_worker.js: what a page asked before this worker
//   controlled it, on the first visit): each such GET fetched again and kept as above.
// - A message {forget: "kept"} (a sign-out or a 401, static/console/service_worker.js; a new sign-in,
//   static/console/session.js keepSession) forgets every kept answer, answered {forgotten: true} on the message's
//   port if any. An answer still on its way then is not kept when it comes (`generation` moved on).

const CACHE_PREFIX = "band-office-";
const SHELL_CACHE = CACHE_PREFIX + "shell-" + SHELL.version;
const KEPT_CACHE_PREFIX = CACHE_PREFIX + "kept-";
const KEPT_AT_HEADER = "Band-Kept-At";
const KEPT_PATH = /^\/v1\/me(\/|$)/;
// A LAN server out of reach may not even refuse the connection: after this long the kept copy is answered
const NETWORK_WAIT_MS = 8000;

// Moves on at each forgetting: an answer asked for in an earlier generation is not kept
let generation = 0;
let writing = Promise.resolve(); // the last write to the kept answers (inTurn)

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(forgetOldCaches().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isConsolePath(url.pathname)) event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(shellFile(request));
  else if (isKept(url, request.headers.get("Authorization"))) event.respondWith(keptOrNetwork(request));
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.forget === "kept") event.waitUntil(forgetKept(event.ports[0]));
  else if (Array.isArray(message.keep)) event.waitUntil(keepAsked(message.keep));
});

async function keepShell() {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll([new Request(SHELL.page, { cache: "no-cache" }), ...SHELL.files]);
}

/** Every cache but this version's shell and the users' kept answers (older versions kept answers for no one). */
async function forgetOldCaches() {
  const names = await caches.keys();
  const mine = (name) => name === SHELL_CACHE || name.startsWith(KEPT_CACHE_PREFIX);
  const old = names.filter((name) => name.startsWith(CACHE_PREFIX) && !mine(name));
  await Promise.all(old.map((name) => caches.delete(name)));
}

async function forgetKept(port) {
  generation += 1;
  try {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(KEPT_CACHE_PREFIX)).map((name) => caches.delete(name)));
  } finally {
    if (port) port.postMessage({ forgotten: true });
  }
}

function isConsolePath(path) {
  return path === "/" || SHELL.consolePaths.some((prefix) => path === prefix || path.startsWith(prefix + "/"));
}

function isKept(url, authorization) {
  return KEPT_PATH.test(url.pathname) && Boolean(authorization) && authorization.startsWith("Bearer ");
}

/** The network's answer if it comes within NETWORK_WAIT_MS, else null; rejects when the network fails. */
function within(answer, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** The network's answer, else `kept()`'s; with neither, the network's own failure. */
async function networkFirst(fetched, kept) {
  fetched.catch(() => {}); // answered from what was kept: its failure is no one's error
  try {
    const answer = await within(fetched, NETWORK_WAIT_MS);
    if (answer) return answer;
  } catch {
    // no connection: what was kept, below
  }
  return (await kept()) || fetched;
}

function page(request) {
  const fetched = fetch(request);
  return networkFirst(fetched, () => caches.match(SHELL.page, { cacheName: SHELL_CACHE }));
}

async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE, ignoreVary: true });
  return kept || fetch(request);
}

/** The name of the cache of the answers asked with `authorization` (a bearer): its SHA-256, never itself. */
async function keptCacheOf(authorization) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization));
  return KEPT_CACHE_PREFIX + [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function keptOrNetwork(request) {
  const authorization = request.headers.get("Authorization");
  const fetched = fetchAndKeep(request, request.url, authorization);
  return networkFirst(fetched, async () => {
    const cache = await caches.open(await keptCacheOf(authorization));
    return cache.match(request.url, { ignoreVary: true });
  });
}

/** The network's answer to `request`, kept under `url` for `authorization` when it is a success that came in the
 * generation it was asked in (no sign-out since). */
function fetchAndKeep(request, url, authorization) {
  const asked = { generation, at: new Date() };
  return fetch(request).then(async (answer) => {
    if (answer.ok) await keep(url, answer.clone(), authorization, asked).catch(() => {}); // full storage: not kept
    return answer;
  });
}

/** `answer` kept under `url` (the key carries no header) in `authorization`'s cache, marked with when it was asked
 * (what it shows is as of then at least); not if every kept answer was forgotten since, nor over a copy asked later
 * (two answers to one URL can cross on their way: the first visit's, fetched again, and the page's own). */
async function keep(url, answer, authorization, asked) {
  const headers = new Headers(answer.headers);
  headers.set(KEPT_AT_HEADER, asked.at.toISOString());
  const copy = new Response(await answer.blob(), { status: answer.status, statusText: answer.statusText, headers });
  const cache = await caches.open(await keptCacheOf(authorization));
  await inTurn(async () => {
    const before = await cache.match(url, { ignoreVary: true });
    const newer = before && Date.parse(before.headers.get(KEPT_AT_HEADER)) > asked.at.getTime();
    if (asked.generation === generation && !newer) await cache.put(url, copy);
  });
}

/** `work()` once every write to the kept answers before it is done: each reads what is kept, then writes, alone. */
function inTurn(work) {
  const done = writing.then(work);
  writing = done.catch(() => {});
  return done;
}

/** The GETs a page asked before this worker saw its requests, fetched again to be kept: the kept paths alone. */
async function keepAsked(asked) {
  const kept = asked.filter(({ url, authorization }) => {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin && isKept(target, authorization);
  });
  const fetches = kept.map(({ url, authorization }) => {
    const request = new Request(url, { headers: { Authorization: authorization, Accept: "application/json" } });
    return fetchAndKeep(request, request.url, authorization);
  });
  await Promise.allSettled(fetches);
}
