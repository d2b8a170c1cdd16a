// The console's URLs (SPEC §12: every screen has its own URL; back, forward, reload and a shared link work).
// Patterns name their parameters: "/gigs/:id" matches "/gigs/8f3…" with params {id: "8f3…"}. Links are plain
// <a href="/gigs/…">: a click on one the console knows is handled here without reloading the page.

import { useEffect, useState } from "./lib.js";

const listeners = new Set();

/** "/records/:collection/:id" -> {regex, names}. */
export function compile(pattern) {
  const names = [];
  const source = pattern.replace(/[.+*?^${}()|[\]\\]/g, "\\$&").replace(/:(\w+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  return { regex: new RegExp(`^${source}/?$`), names };
}

/** The first of `routes` ([{pattern, ...}] with `compiled` set by compile) matching `path`, with its params. */
export function match(routes, path) {
  for (const route of routes) {
    const found = route.compiled.regex.exec(path);
    if (found) {
      const params = {};
      route.compiled.names.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1])));
      return { route, params };
    }
  }
  return null;
}

export function currentLocation() {
  return { path: location.pathname, query: Object.fromEntries(new URLSearchParams(location.search)) };
}

/** Show `url` (a path with its query) as a new history entry, or in place of this one with {replace: true}. */
export function navigate(url, { replace = false } = {}) {
  history[replace ? "replaceState" : "pushState"](null, "", url);
  listeners.forEach((listener) => listener(currentLocation()));
}

/** The current {path, query}, re-rendering on navigation and on back/forward. */
export function useLocation() {
  const [where, setWhere] = useState(currentLocation);
  useEffect(() => {
    const follow = () => setWhere(currentLocation());
    listeners.add(setWhere);
    addEventListener("popstate", follow);
    return () => {
      listeners.delete(setWhere);
      removeEventListener("popstate", follow);
    };
  }, []);
  return where;
}

/** Clicks on links to paths `handled(path)` says the console shows navigate in the page. */
export function interceptLinks(handled) {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target || link.hasAttribute("download") || link.getAttribute("href").startsWith("#")) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || !handled(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}
