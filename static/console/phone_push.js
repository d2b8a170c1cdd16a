// Push to this phone (SPEC §13): whether this browser can be pushed to, and turning it on and off.
//
//   pushUnavailable()                 -> null, or why this page cannot receive pushes ("insecure", "unsupported")
//   await subscribe(api, publicKey)   asks the permission, subscribes with the server's key, registers the device
//   await unsubscribe(api)            removes the device from the server, then ends the browser's subscription
//   rememberedDevice()                -> {id, token} of the device this browser registered, or null
//   await forgetThisPhone(api)        on sign-out: the user's pushes no longer come here (failures ignored)
//
// The device this browser registered is remembered in localStorage (PUSH_DEVICE_KEY), so that "Stop notifications"
// removes that one (DELETE /v1/devices/{token}) even after the browser's subscription has changed or gone.

import { isOffline } from "./offline.js";

export const PUSH_DEVICE_KEY = "band-office.push-device";
const FORGET_WAIT_MS = 5000;
const WORKER_WAIT_MS = 15000;
const APP_VERSION = "web app";

export class PushRefused extends Error {
  constructor(permission) {
    super(`Notifications are ${permission === "denied" ? "blocked" : "not allowed"} for this site.`);
    this.name = "PushRefused";
    this.permission = permission;
  }
}

/** Why this page cannot be pushed to: "insecure" (plain HTTP other than localhost), "unsupported", or null. */
export function pushUnavailable() {
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "unsupported";
  }
  return null;
}

export function permission() {
  return "Notification" in window ? Notification.permission : "default";
}

export function rememberedDevice() {
  try {
    const device = JSON.parse(localStorage.getItem(PUSH_DEVICE_KEY) || "null");
    return device && typeof device.token === "string" ? device : null;
  } catch {
    return null;
  }
}

/** The app's service worker registration, once it is active (it pushes and shows the notifications). */
async function registration() {
  let timer;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error("The app's service worker did not start: reload the page.")), WORKER_WAIT_MS);
  });
  return Promise.race([navigator.serviceWorker.ready, late]).finally(() => clearTimeout(timer));
}

/** The base64url application server key as the bytes PushManager.subscribe takes. */
function keyBytes(publicKey) {
  const base64 = publicKey.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** The browser's subscription with the server's key: one made with an older key (the office made a new pair) is
 * ended first, as the browser refuses a second. */
async function subscribed(pushManager, applicationServerKey) {
  const options = { userVisibleOnly: true, applicationServerKey };
  try {
    try {
      return await pushManager.subscribe(options);
    } catch (error) {
      if (error.name !== "InvalidStateError") throw error;
      const old = await pushManager.getSubscription();
      if (old) await old.unsubscribe();
      return await pushManager.subscribe(options);
    }
  } catch (error) {
    throw new Error(`This browser could not turn notifications on (${error.message}).`);
  }
}

/** Ask the permission, subscribe this browser and register it as a `web` device; the device, remembered. */
export async function subscribe(api, publicKey) {
  const answer = await Notification.requestPermission();
  if (answer !== "granted") throw new PushRefused(answer);
  const worker = await registration();
  const token = JSON.stringify(await subscribed(worker.pushManager, keyBytes(publicKey)));
  const body = { token, platform: "web", environment: "production", app_version: APP_VERSION, label: "Web browser" };
  const device = (await api.post("/devices", body)).data;
  localStorage.setItem(PUSH_DEVICE_KEY, JSON.stringify({ id: device.id, token: device.token }));
  return device;
}

/** Remove the remembered device from the server (gone already is fine), then end the browser's subscription. */
export async function unsubscribe(api) {
  const device = rememberedDevice();
  if (device) {
    try {
      await api.delete(`/devices/${encodeURIComponent(device.token)}`);
    } catch (failure) {
      if (failure.status !== 404) throw failure;
    }
  }
  localStorage.removeItem(PUSH_DEVICE_KEY);
  const worker = await navigator.serviceWorker.getRegistration("/");
  const subscription = worker && (await worker.pushManager.getSubscription());
  if (subscription) await subscription.unsubscribe();
}

/** On sign-out: what the user is told no longer shows on this browser, whoever uses it next. Signing out waits
 * FORGET_WAIT_MS at most (a lost connection is retried for longer): past that, or offline, the device stays. */
export async function forgetThisPhone(api) {
  if (!rememberedDevice() || pushUnavailable() || isOffline()) return;
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, FORGET_WAIT_MS)));
  await Promise.race([unsubscribe(api).catch(() => {}), late]).finally(() => clearTimeout(timer));
}
