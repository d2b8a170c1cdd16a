// The app shell and the last-loaded pages (SPEC §13): with no connection the console opens and shows what it last
// loaded, "as of" then, read only.
// - Install: the page and every file of the static tree of the current digest (SHELL, the head /sw.js is written
//   with) are kept; a new version (any change to them) installs and takes over at once, its old shell forgotten.
// - A console path opened (a navigation): the network first, the kept page when it cannot be reached.
// - /static/<digest>/...: the kept file, else the network (their URLs change with their contents).
// - GET /v1/me and /v1/me/...: the network first, the answer kept per URL (never the bearer: the key is the URL
//   alone); when the network fails the kept copy is answered, marked `Band-Kept-At: <when it was fetched>`
//   (static/console/offline.js reads it). Writes pass through: never kept, never answered from here.
// - A message {forget: "kept"} (a sign-out or a 401, static/console/service_worker.js; a new sign-in,
//   static/console/session.js keepSession) forgets every kept answer, answered {forgotten: true} on the message's port if any.

const SHELL_CACHE_PREFIX = "band-office-shell-";
const SHELL_CACHE = SHELL_CACHE_PREFIX + SHELL.version;
const KEPT_CACHE = "band-office-kept";
const KEPT_AT_HEADER = "Band-Kept-At";
const KEPT_PATH = /^\/v1\/me(\/|$)/;
// A LAN server out of reach may not even refuse the connection: after this long the kept copy is answered
const NETWORK_WAIT_MS = 8000;

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(forgetOldShells().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isConsolePath(url.pathname)) event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(shellFile(request));
  else if (KEPT_PATH.test(url.pathname)) event.respondWith(keptOrNetwork(request));
});

self.addEventListener("message", (event) => {
  if (!event.data || event.data.forget !== "kept") return;
  const answer = () => event.ports[0] && event.ports[0].postMessage({ forgotten: true });
  event.waitUntil(caches.delete(KEPT_CACHE).then(answer, answer));
});

async function keepShell() {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll([new Request(SHELL.page, { cache: "no-cache" }), ...SHELL.files]);
}

async function forgetOldShells() {
  const names = await caches.keys();
  const old = names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE);
  await Promise.all(old.map((name) => caches.delete(name)));
}

function isConsolePath(path) {
  return path === "/" || SHELL.consolePaths.some((prefix) => path === prefix || path.startsWith(prefix + "/"));
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

function keptOrNetwork(request) {
  const fetched = fetch(request).then(async (answer) => {
    if (answer.ok) await keep(request.url, answer.clone()).catch(() => {}); // full storage: answered, not kept
    return answer;
  });
  return networkFirst(fetched, async () => {
    const cache = await caches.open(KEPT_CACHE);
    return cache.match(request.url, { ignoreVary: true });
  });
}

/** `answer` kept under `url` (the key carries no header: the bearer stays out), marked with when it was fetched. */
async function keep(url, answer) {
  const headers = new Headers(answer.headers);
  headers.set(KEPT_AT_HEADER, new Date().toISOString());
  const copy = new Response(await answer.blob(), { status: answer.status, statusText: answer.statusText, headers });
  const cache = await caches.open(KEPT_CACHE);
  await cache.put(url, copy);
}
