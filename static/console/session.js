// The session the /signin page hands to the console (SPEC §12): under one key, as JSON
// {"token", "expires_at", "user": {"id", "name", "email"}}, in localStorage ("keep me signed in") or
// sessionStorage; localStorage is read first. Forgetting it forgets what the service worker kept for it too.

import { forgetKeptPages } from "./service_worker.js";

export const SESSION_KEY = "band-office.session";

function readFrom(storage) {
  try {
    const session = JSON.parse(storage.getItem(SESSION_KEY) || "null");
    return session && typeof session.token === "string" ? session : null;
  } catch {
    return null;
  }
}

function expired(session) {
  return Boolean(session.expires_at) && Date.parse(session.expires_at) <= Date.now();
}

/** Keep what a sign-in answered ({token, expires_at, user}) as the session: in localStorage with `keep` ("keep me
 * signed in"), else in this tab's sessionStorage. Resolves once what the service worker kept for whoever was signed
 * in here before is forgotten (/signin and /setup hand the session over with it, then open the console). */
export function keepSession(data, keep) {
  const { id, name, email } = data.user;
  const session = { token: data.token, expires_at: data.expires_at, user: { id, name, email } };
  (keep ? sessionStorage : localStorage).removeItem(SESSION_KEY);
  (keep ? localStorage : sessionStorage).setItem(SESSION_KEY, JSON.stringify(session));
  return forgetKeptPages();
}

/** The current session, or null when there is none or it has expired. */
export function readSession() {
  const session = readFrom(localStorage) || readFrom(sessionStorage);
  return session && !expired(session) ? session : null;
}

/** Resolves once the service worker's kept answers are forgotten too (the next person here must not see them). */
export function forgetSession() {
  localStorage.removeItem(SESSION_KEY);
  sessionStorage.removeItem(SESSION_KEY);
  return forgetKeptPages();
}

/** Off to sign in; the signin page comes back to where the console was. */
export function signInAgain() {
  const next = location.pathname + location.search;
  location.assign(`/signin?next=${encodeURIComponent(next)}`);
}
