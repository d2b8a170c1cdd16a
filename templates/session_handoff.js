  // Handing a session to the console (SPEC §12), shared by /signin and /setup: kept by the console's own
  // keepSession (session.js, imported by the page). NEXT_KEY is where /signin keeps the console's `next` while
  // the mailed link is on its way: the link opens in another tab, which shares localStorage.
  var NEXT_KEY = "band-office.next";

  // A path of this origin (one "/", then not "/" or "\"), else null: never another site, nor a scheme.
  function sameOriginPath(value) {
    if (typeof value !== "string" || startsLikeAnotherHost(value)) {
      return null;
    }
    var url;
    try {
      url = new URL(value, location.origin);
    } catch (e) {
      return null;
    }
    // "/.//evil.example" is of this origin, yet its normalised path "//evil.example" names another host.
    return url.origin === location.origin && !startsLikeAnotherHost(url.pathname) ? url.pathname + url.search + url.hash : null;
  }
  // Not one "/" then a path: "//host", "/\host", or either spelled with %2F or %5C.
  function startsLikeAnotherHost(path) {
    var decoded;
    try {
      decoded = decodeURIComponent(path);
    } catch (e) {
      return true;
    }
    return [path, decoded].some(function (each) {
      return each.charAt(0) !== "/" || each.charAt(1) === "/" || each.charAt(1) === "\\";
    });
  }
  // Open the console in place of this page, whose address held the link's token: it leaves no history entry.
  function openConsole(data, keep, next) {
    keepSession(data, keep).then(function () {
      location.replace(next || "/");
    });
  }
