// OptionPilot's service worker (scope /): shows the notifications the server pushes
// (server/src/notifications/channels/push.ts sends { title, body, url, tag }) and, on a click, brings the app to
// the notice's page. Plain JavaScript because Vite copies web/public to the build as it is, served at /sw.js.

self.addEventListener('install', () => {
  // A new version takes over at once: it only shows notifications, so there is no old state to drain.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(showPushed(event.data));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openApp(sameOriginPath(data.url)));
});

/** Reads a pushed message (JSON from our server; plain text shown as it is) and shows it. */
async function showPushed(data) {
  let message = {};
  if (data) {
    try {
      message = data.json();
    } catch {
      message = { body: data.text() };
    }
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'OptionPilot';
  const options = {
    body: typeof message.body === 'string' ? message.body : '',
    data: { url: sameOriginPath(message.url) },
  };
  // The server's tag is one per notice: a repeated delivery replaces the notification instead of adding one.
  if (typeof message.tag === 'string' && message.tag) options.tag = message.tag;
  await self.registration.showNotification(title, options);
}

/** A path of this app; anything pointing elsewhere becomes the home page (a notification never opens a stranger). */
function sameOriginPath(url) {
  try {
    const parsed = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    if (parsed.origin !== self.location.origin) return '/';
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return '/';
  }
}

/** Focuses a tab of the app already on `path`, else navigates one of its tabs there, else opens a new one. */
async function openApp(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const exact = windows.find((client) => client.url === target);
  if (exact) return exact.focus();
  const ours = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (ours) {
    try {
      const moved = await ours.navigate(target);
      if (moved) return moved.focus();
    } catch {
      // navigate() refuses a tab this worker does not control (opened before it was installed): open a new one.
    }
  }
  return self.clients.openWindow(target);
}
