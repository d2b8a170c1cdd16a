// The one way the console speaks to /v1 (SPEC §12): the session's bearer token, JSON both ways, the error
// envelope turned into an ApiError, a 401 back to sign-in (then to the same place), and a 503 or a lost
// connection retried while the shell says "Retrying…" (but not while offline: the device has no network, or the
// app shows the service worker's kept copies; then a write fails at once, saying so).
//
//   const { api } = useConsole();   (context.js: a screen or component reaches it so, never by importing it)
//   import { ApiError } from "../api.js";
//   const {data, meta} = await api.get("/gigs", {"filter[gig_date][gte]": "2026-11-01", sort: "gig_date"});
//   const gig = (await api.patch(`/gigs/${id}`, {title})).data;
//   try { ... } catch (e) { if (e instanceof ApiError && e.status === 422) showAtFields(e.details); }
//
// A query's value may be an array (the parameter repeated); null and undefined values are left out.

import { isOffline, noteAnswer } from "./offline.js";
import { saveBlob } from "./save_file.js";
import { noteAsked } from "./service_worker.js";
import { forgetSession, readSession, signInAgain } from "./session.js";

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details || null;
  }
}

const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 10000];
const RETRY_LIMIT = 12; // about 1.5 minutes of retrying before the error is shown
const retrying = new Set();
const retryListeners = new Set();

/** listener(boolean) whenever requests start or stop waiting to be retried; returns the unsubscribe. */
export function onRetrying(listener) {
  retryListeners.add(listener);
  return () => retryListeners.delete(listener);
}

function markRetrying(request, waiting) {
  const before = retrying.size > 0;
  waiting ? retrying.add(request) : retrying.delete(request);
  if (before !== retrying.size > 0) retryListeners.forEach((listener) => listener(retrying.size > 0));
}

export function urlOf(path, query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query || {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== null && one !== undefined) params.append(key, String(one));
    }
  }
  const search = params.toString();
  return `/v1${path}${search ? `?${search}` : ""}`;
}

async function errorOf(response) {
  try {
    const { error } = await response.json();
    return new ApiError(error.status, error.code, error.message, error.details);
  } catch {
    return new ApiError(response.status, "http_error", `The server answered ${response.status}.`);
  }
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function retryAfterMs(response, attempt) {
  const stated = Number(response && response.headers.get("Retry-After"));
  return stated > 0 ? Math.min(stated, 30) * 1000 : RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
}

/** The Authorization header's value: the one place the bearer is read. Without a session, back to sign-in. */
function bearer() {
  const session = readSession();
  if (!session) signInAgain();
  return session ? `Bearer ${session.token}` : null;
}

const WRITE_OFFLINE = "You are offline: nothing can be changed until the band office's server can be reached again.";
const READ_OFFLINE = "You are offline, and this page was not kept from an earlier visit.";

/** Whether a request cannot be sent now: retrying would only keep the person waiting. */
function offlineNow() {
  return navigator.onLine === false || isOffline();
}

function offlineError(method) {
  return new ApiError(0, "offline", method === "GET" ? READ_OFFLINE : WRITE_OFFLINE);
}

const LEAVING = () => new Promise(() => {}); // the page is going back to sign-in

async function send(method, url, { body, signal, accept }) {
  const authorization = bearer();
  if (!authorization) return LEAVING();
  const headers = { Accept: accept, Authorization: authorization };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "GET" && accept === "application/json") noteAsked(url, authorization);
  return fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
}

/** The successful Response of one request, throws ApiError otherwise: a 401 goes back to sign-in, a 503 is resent
 * whatever the method (nothing was done), a lost connection resent unless a POST (it may have been done) or offline
 * (a write is not even sent with no network). */
async function respond(method, url, { body, signal, accept = "application/json" } = {}) {
  const token = {};
  if (method !== "GET" && navigator.onLine === false) throw offlineError(method);
  try {
    for (let attempt = 0; ; attempt++) {
      let response = null;
      try {
        response = await send(method, url, { body, signal, accept });
      } catch (error) {
        if (error.name !== "AbortError" && offlineNow()) throw offlineError(method);
        if (error.name === "AbortError" || method === "POST" || attempt >= RETRY_LIMIT) {
          throw error.name === "AbortError" ? error : new ApiError(0, "offline", "The server cannot be reached.");
        }
      }
      if (response && response.status === 401) {
        await forgetSession();
        signInAgain();
        return LEAVING();
      }
      if (response && response.status !== 503) {
        noteAnswer(response);
        if (!response.ok) throw await errorOf(response);
        return response;
      }
      if (attempt >= RETRY_LIMIT) throw await errorOf(response);
      markRetrying(token, true);
      await pause(retryAfterMs(response, attempt));
    }
  } finally {
    markRetrying(token, false);
  }
}

/** A POST of JSON from the pages before sign-in (/signin, /setup, /answer): no session, no retry; resolves to
 * {status, wait (Retry-After), body (the JSON answered, or {})} whatever the status, rejects when unreachable. */
export async function postWithoutSession(url, body) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  return { status: response.status, wait: response.headers.get("Retry-After"), body: answer };
}

/** The parsed answer ({data, meta} or null for 204) of one request; throws ApiError. */
export async function request(method, path, { query, body, signal } = {}) {
  const response = await respond(method, urlOf(path, query), { body, signal });
  return response.status === 204 ? null : response.json();
}

export const api = {
  request,
  get: (path, query, options) => request("GET", path, { ...options, query }),
  post: (path, body, options) => request("POST", path, { ...options, body }),
  patch: (path, body, options) => request("PATCH", path, { ...options, body }),
  put: (path, body, options) => request("PUT", path, { ...options, body }),
  delete: (path, options) => request("DELETE", path, options),
  upload: (path, form, onProgress, method) => upload(path, form, onProgress, method),
  download: (path, filename) => download(path, filename),
  blob: (path) => blob(path),
};

/** POST (or `method`, PUT) a multipart `form` (FormData) to `path`, calling onProgress(sent, total) as the bytes go;
 * resolves to the parsed answer or rejects with an ApiError, as request() does (XMLHttpRequest: fetch reports no
 * upload progress). Not retried: the upload may have been stored. */
export function upload(path, form, onProgress, method = "POST") {
  if (navigator.onLine === false) return Promise.reject(offlineError(method));
  const authorization = bearer();
  if (!authorization) return LEAVING();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, urlOf(path));
    xhr.setRequestHeader("Authorization", authorization);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => onProgress && onProgress(event.loaded, event.total);
    xhr.onerror = () => reject(offlineNow() ? offlineError(method) : new ApiError(0, "offline", "The server cannot be reached."));
    xhr.onload = () => {
      if (xhr.status === 401) {
        forgetSession().finally(signInAgain);
        return;
      }
      let answer = null;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: said below by the status
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(answer);
      const error = answer && answer.error;
      reject(error ? new ApiError(error.status, error.code, error.message, error.details)
        : new ApiError(xhr.status, "http_error", `The server answered ${xhr.status}.`));
    };
    xhr.send(form);
  });
}

/** The bytes at `path` (e.g. /attachments/{id}/content) saved as `filename` by the browser; a 401 and a 503 are
 * handled as request() handles them. */
export async function download(path, filename) {
  saveBlob(await blob(path), filename);
}

/** The bytes at `path` as a Blob (an image shown through an object URL: an <img> cannot send the bearer). */
export async function blob(path) {
  return (await respond("GET", urlOf(path), { accept: "*/*" })).blob();
}
