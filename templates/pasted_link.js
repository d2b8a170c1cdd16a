  // The link token in what was pasted on /signin: the mailed link copied whole, or its bare token. An app
  // installed on an iPhone's home screen keeps its storage apart from Safari's, where the mailed link opens, so
  // pasting the link is how the app itself signs in. A link of another site or page yields no token: a problem.
  var LINK_TOKEN = /^bol_[A-Za-z0-9_-]+$/;

  function pastedToken(text) {
    var pasted = text.trim();
    var url;
    if (pasted === "") {
      return {problem: "Paste the link from the mail first. " + copyWhole()};
    }
    if (LINK_TOKEN.test(pasted)) {
      return {token: pasted};
    }
    try {
      url = new URL(pasted);
    } catch (e) {
      return {problem: "This is not a sign-in link, nor its token. " + copyWhole()};
    }
    if (url.origin !== location.origin) {
      return {problem: "This link leads to another site, not to this office. " + copyWhole()};
    }
    var token = new URLSearchParams(url.hash.slice(1)).get("token");
    if (url.pathname !== location.pathname || !LINK_TOKEN.test(token || "")) {
      return {problem: "This link holds no sign-in token. " + copyWhole()};
    }
    return {token: token};
  }
  function copyWhole() {
    return "Copy the whole link from the mail, to its end: it starts with " + location.origin + location.pathname +
      "#token=";
  }
