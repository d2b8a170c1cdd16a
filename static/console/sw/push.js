// Pushes to this phone (SPEC §9, §13): each push the office sends is shown as a notification, and a tap on it
// opens what it is about.
// - A push carries {notification_id, type, title, body, data: {gig_id, gig_role_id, invitation_id}}: ids only,
//   never an address or an amount (the page reads those from /v1/me). Its tag is the invitation's or the gig's,
//   so that a newer push about the same thing replaces the one shown.
// - A tap opens /my/invitations/{invitation_id} for the invitation types, else /my/gigs/{gig_id}, else /my/inbox:
//   in a window of the app already open (focused and sent there), else in a new one.

const INVITATION_TYPES = ["invitation", "invitation_reminder", "invitation_withdrawn"];
const FALLBACK_TITLE = "Band office";
const ICON = SHELL.files.find((url) => url.endsWith("/console/icons/app-192.png"));

self.addEventListener("push", (event) => {
  const message = pushed(event);
  const data = message.data && typeof message.data === "object" ? message.data : {};
  const options = { body: String(message.body || ""), data: { type: message.type, ...data }, icon: ICON };
  const tag = tagOf(message.type, data);
  if (tag) Object.assign(options, { tag, renotify: true });
  event.waitUntil(self.registration.showNotification(String(message.title || FALLBACK_TITLE), options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openApp(pathOf(event.notification.data || {})));
});

/** The push's message; a push that is not our JSON still shows, as its text. */
function pushed(event) {
  if (!event.data) return {};
  try {
    const message = event.data.json();
    return message && typeof message === "object" ? message : {};
  } catch {
    return { body: event.data.text() };
  }
}

function tagOf(type, data) {
  if (INVITATION_TYPES.includes(type) && data.invitation_id) return `invitation-${data.invitation_id}`;
  if (data.gig_id) return `gig-${data.gig_id}`;
  return null;
}

function pathOf(data) {
  if (INVITATION_TYPES.includes(data.type) && data.invitation_id) {
    return `/my/invitations/${encodeURIComponent(data.invitation_id)}`;
  }
  if (data.gig_id) return `/my/gigs/${encodeURIComponent(data.gig_id)}`;
  return "/my/inbox";
}

async function openApp(path) {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    try {
      await open.focus();
      const navigated = await open.navigate(url); // null when the window is not one this worker controls
      if (navigated) return navigated;
    } catch {
      // not allowed here: a new window instead
    }
  }
  return self.clients.openWindow(url);
}
