// Keeps the app's shell so that it opens on a course with no signal: its own files, and the app's page (`/`) as a
// signed-in browser last got it. Data is not cached here: the app keeps its reads and its unsent entries in
// IndexedDB (local.js), where it can say how old they are.
const SHELL = 'caddie-shell-v9';
const FILES = ['/app.css', '/app.js', '/render.js', '/store.js', '/api.js', '/live.js', '/outbox.js', '/local.js',
  '/device.js', '/ops.js', '/send.js', '/card-screen.js', '/card-actions.js', '/blake2b.js', '/guide.js', '/guide-screen.js', '/devices-screen.js', '/new-game-screen.js', '/report-screens.js',
  '/icon.svg', '/manifest.webmanifest'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL)
    .then((cache) => Promise.all([cache.addAll(FILES), keepPage(cache)]))
    .then(() => self.skipWaiting()));
});

/** Keeps the app's page when the node gives it (a signed-in browser), so a phone that signed in and walked away at
 * once still opens the app. */
function keepPage(cache) {
  return fetch('/', { credentials: 'same-origin' })
    .then((response) => (response.ok && response.headers.get('Caddie-Page') === 'app' ? cache.put('/', response) : null))
    .catch(() => null);
}

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname === '/') {
    // The page is the app for a signed-in browser and the sign-in page otherwise: keep only the app (the node
    // marks it), and give it when no node answers.
    event.respondWith(fetch(event.request)
      .then((response) => {
        if (response.ok && response.headers.get('Caddie-Page') === 'app') {
          const copy = response.clone();
          caches.open(SHELL).then((cache) => cache.put('/', copy));
        }
        return response;
      })
      .catch(() => caches.open(SHELL).then((cache) => cache.match('/')).then((kept) => kept ?? Response.error())));
    return;
  }
  if (!FILES.includes(url.pathname)) return;
  // Network first, so an upgraded node's files win; the cache when the node is out of reach.
  event.respondWith(fetch(event.request)
    .then((response) => {
      const copy = response.clone();
      caches.open(SHELL).then((cache) => cache.put(event.request, copy));
      return response;
    })
    .catch(() => caches.match(event.request)));
});
