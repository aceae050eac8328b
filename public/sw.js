// Cuepoint's service worker: what makes the site installable, and the page it shows offline.
//
// It keeps one cache per build (named by the ?v= the page registers it with, the build's id) holding
// only the app's shell: the offline page, fetched without cookies so it is the same for everyone, and
// the build's static files (/_next/static: scripts, styles, fonts) and the app's icons. It never keeps
// a page anyone reads (every other page goes to the network, always), an answer from the backend (a
// different origin, which the worker never touches), a route handler's answer, a React Server
// Components payload, or media. When a page can't be reached at all, it shows the offline page.
//
// The rules come first, as plain functions (tests/unit/service-worker.test.ts runs them); the worker
// itself only runs in a service worker's global scope.

const OFFLINE_PATH = "/offline";
const CACHE_PREFIX = "cuepoint-shell-";
/** The installed app's icons (app/manifest.ts), kept so the launcher and offline page never miss them. */
const ICONS = ["/icons/icon-192.png", "/icons/icon-512.png", "/icons/maskable-512.png"];
const MEDIA_DESTINATIONS = new Set(["audio", "video", "track"]);
const MEDIA_FILE = /\.(?:mp3|m4a|aac|ogg|oga|opus|wav|flac|mp4|m4v|mov|webm|mkv|m3u8|mpd|ts)$/i;

/** Files of the shell the worker may keep: the build's hashed static files and the app's icons. */
function isShellAsset(pathname) {
  return (
    pathname.startsWith("/_next/static/") ||
    pathname.startsWith("/icons/") ||
    pathname === "/icon.svg" ||
    pathname === "/apple-icon.png" ||
    pathname === "/favicon.ico"
  );
}

/**
 * What the worker does with a request — `{ url, method, mode, destination, range }` (range: whether
 * it asks for a byte range) — on a site at `origin`:
 * - "asset": a shell file, answered from the cache, else fetched and kept;
 * - "page": a page, fetched from the network and never kept; the offline page if that fails;
 * - "network": left alone — the browser fetches it as if there were no worker.
 */
function routeRequest({ url, method, mode, destination, range }, origin) {
  if (method !== "GET") return "network";
  const target = new URL(url);
  if (target.origin !== origin) return "network";
  if (mode === "navigate") return "page";
  if (range || MEDIA_DESTINATIONS.has(destination) || MEDIA_FILE.test(target.pathname)) return "network";
  if (target.searchParams.has("_rsc")) return "network";
  return isShellAsset(target.pathname) ? "asset" : "network";
}

/** The build's static files a page's HTML names (its scripts, styles and fonts), each once. */
function shellAssetsIn(html) {
  const found = html.match(/\/_next\/static\/[\w\-.~/%]+\.(?:js|css|woff2?|ttf|otf|svg|png|jpe?g|webp|avif|gif|ico)(?![\w.])/g) ?? [];
  return [...new Set(found)];
}

/** The cache a worker registered as `scriptUrl` keeps its shell in. */
function cacheNameFor(scriptUrl) {
  const version = new URL(scriptUrl).searchParams.get("v") ?? "";
  return CACHE_PREFIX + (/^[\w-]{1,64}$/.test(version) ? version : "unversioned");
}

if (typeof ServiceWorkerGlobalScope === "function" && self instanceof ServiceWorkerGlobalScope) {
  const shellCache = cacheNameFor(self.location.href);

  self.addEventListener("install", (event) => {
    event.waitUntil(
      (async () => {
        // Without cookies, so the copy kept is the page as a stranger sees it, never a signed-in one.
        const page = await fetch(OFFLINE_PATH, { credentials: "omit", cache: "no-store", redirect: "error" });
        if (!page.ok) throw new Error(`The offline page answered ${page.status}.`);
        const cache = await caches.open(shellCache);
        // All of the page's files or none: an offline page whose scripts are missing would fail to start.
        await cache.addAll([...shellAssetsIn(await page.clone().text()), ...ICONS]);
        await cache.put(OFFLINE_PATH, page);
        await self.skipWaiting();
      })(),
    );
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil(
      (async () => {
        // The last build's shell goes: its files are of no use to this one.
        const names = await caches.keys();
        await Promise.all(names.filter((name) => name !== shellCache).map((name) => caches.delete(name)));
        // Pages start loading while the worker wakes up, instead of after.
        await self.registration.navigationPreload?.enable();
        await self.clients.claim();
      })(),
    );
  });

  self.addEventListener("fetch", (event) => {
    const { request } = event;
    const route = routeRequest(
      {
        url: request.url,
        method: request.method,
        mode: request.mode,
        destination: request.destination,
        range: request.headers.has("range"),
      },
      self.location.origin,
    );
    if (route === "asset") event.respondWith(shellAsset(event));
    else if (route === "page") event.respondWith(pageOrOffline(event));
  });

  /** A shell file from the cache; fetched and kept the first time (a build's files never change). */
  async function shellAsset(event) {
    const cache = await caches.open(shellCache);
    const kept = await cache.match(event.request);
    if (kept) return kept;
    const response = await fetch(event.request);
    if (response.status === 200 && response.type === "basic") event.waitUntil(cache.put(event.request, response.clone()));
    return response;
  }

  /** The page from the network — whatever it answers, an error page included; the offline page only when unreachable. */
  async function pageOrOffline(event) {
    try {
      return (await event.preloadResponse) ?? (await fetch(event.request));
    } catch (error) {
      const offline = await caches.match(OFFLINE_PATH, { cacheName: shellCache, ignoreVary: true });
      if (offline) return offline;
      throw error;
    }
  }
}
