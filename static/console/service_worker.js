// The console's side of the service worker (/sw.js, SPEC §13): registered where the browser offers service workers
// (HTTPS or localhost; on plain HTTP over the LAN it does not, and the console works as it did, without offline).
//
//   registerWorker()           once, at start
//   await forgetKeptPages()    on sign-out: the answers the worker kept for this user are forgotten

const SCRIPT = "/sw.js";
const FORGET_WAIT_MS = 3000;

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(SCRIPT, { scope: "/" }).catch((error) => {
    console.warn(`The band office works without offline use here: ${error.message}`);
  });
}

/** Resolves once the worker has forgotten what it kept (or at once with no worker; after FORGET_WAIT_MS at most). */
export async function forgetKeptPages() {
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
