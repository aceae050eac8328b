// The installable app: Chromium's own installability check passes (manifest, icons, service worker),
// the worker keeps only the app's shell, and with the network gone a page shows the offline page.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { createConfirmedUser, profileOf } from "./support/users";

/** Waits for the page's service worker to be active; answers its scope and script. */
async function activeWorker(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
  });
}

/** Every entry of every cache the site holds: the cache's name, the entry's path and content type. */
async function cacheContents(page: Page) {
  return page.evaluate(async () => {
    const entries: { cache: string; path: string; type: string }[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        const url = new URL(request.url);
        entries.push({ cache: name, path: url.pathname + url.search, type: response?.headers.get("content-type") ?? "" });
      }
    }
    return entries;
  });
}

/** A PNG's width and height, from its header. */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test("Chromium finds the site installable: a manifest with its icons, and a service worker for the whole site", async ({
  playwright,
  launchOptions,
  baseURL,
}) => {
  // Chromium installs nothing from an incognito profile (a test's usual context): this one has a profile of its own.
  const profile = await mkdtemp(path.join(tmpdir(), "cuepoint-install-"));
  const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  try {
    await installableIn(await context.newPage());
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

async function installableIn(page: Page) {
  const errors = await watchConsole(page);
  await page.goto("/");
  const worker = await activeWorker(page);
  expect(worker.scope).toBe(new URL("/", page.url()).href);
  expect(worker.script).toMatch(/\/sw\.js\?v=[\w-]+$/);
  // Once active, the worker answers the site's pages.
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(worker.script);

  const cdp = await page.context().newCDPSession(page);
  const manifest = await cdp.send("Page.getAppManifest");
  expect(manifest.url).toBe(new URL("/manifest.webmanifest", page.url()).href);
  expect(manifest.errors).toEqual([]);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  expect(installabilityErrors).toEqual([]);

  // The manifest's icons exist at the sizes it claims, a maskable one among them.
  const data = JSON.parse(manifest.data ?? "{}") as {
    display: string;
    start_url: string;
    scope: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(data).toMatchObject({ display: "standalone", start_url: "/", scope: "/" });
  expect(data.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
  for (const icon of [...data.icons, { src: "/apple-icon.png", sizes: "180x180", type: "image/png" }]) {
    const response = await page.request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()["content-type"]).toBe(icon.type);
    expect(pngSize(await response.body()), icon.src).toBe(icon.sizes);
  }
  // The title bar follows the light and dark palettes.
  await expect(page.locator('meta[name="theme-color"][media="(prefers-color-scheme: light)"]')).toHaveAttribute("content", "#ffffff");
  await expect(page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]')).toHaveAttribute("content", "#1c1917");
  await expect(page.locator("link[rel=apple-touch-icon]")).toHaveAttribute("href", /^\/apple-icon\.png/);

  // The worker's script is checked for a new version on each visit, and claims no more than the site's root.
  const script = await page.request.get("/sw.js");
  expect(script.status()).toBe(200);
  expect(script.headers()["cache-control"]).toBe("no-cache");
  expect(script.headers()["content-type"]).toMatch(/^application\/javascript/);
  expect(script.headers()["service-worker-allowed"]).toBeUndefined();
  expect(errors).toEqual([]);
}

test("with the network off, a page shows the offline page; the worker's cache holds only the shell", async ({ page, context }) => {
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("offline");
  const { username } = await profileOf(user.id);
  await signInWithPassword(page, user.email, user.password, "/login?next=/account");
  await expect(page).toHaveURL(/\/account$/);
  await expectSignedIn(page);
  await activeWorker(page);
  // Pages read while signed in, on the network as always.
  await page.goto("/");
  await page.goto(`/u/${username}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Its lazy parts and prefetches settled first: a request the switch cuts off is not the offline page's.
  await page.waitForLoadState("networkidle");

  await context.setOffline(true);
  const offline = await page.goto("/rooms/new");
  expect(offline?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { level: 1, name: "You're offline" })).toBeVisible();
  // Shown at the address that failed, so "Try again" loads that address; no account in it.
  await expect(page).toHaveURL(/\/rooms\/new$/);
  await expect(page).toHaveTitle("You're offline · Cuepoint");
  await expect(page.getByRole("main")).not.toContainText(username);
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await checkPage(page, "offline");
  // checkPage draws dark at the phone's width; the desktop's too, to look at.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "e2e/screenshots/offline-dark-1280.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  // The cache: one, this build's; the offline page is its only HTML, the rest the build's static
  // files and the icons — no page read while signed in, nothing from the backend, no media.
  const worker = await activeWorker(page);
  const entries = await cacheContents(page);
  expect(new Set(entries.map((entry) => entry.cache))).toEqual(new Set([`cuepoint-shell-${new URL(worker.script).searchParams.get("v")}`]));
  for (const entry of entries) {
    expect(entry.path, JSON.stringify(entry)).toMatch(
      /^(\/offline|\/_next\/static\/[^?]+\.(js|css|woff2?)|\/icons\/[\w-]+\.png|\/(icon\.svg|apple-icon\.png|favicon\.ico)(\?[\w.-]+)?)$/,
    );
    if (entry.type.startsWith("text/html")) expect(entry.path).toBe("/offline");
    expect(entry.type, entry.path).not.toMatch(/^(audio|video)\//);
  }
  expect(entries.filter((entry) => entry.path === "/offline")).toHaveLength(1);
  const offlineCopy = await page.evaluate(async () => (await caches.match("/offline"))?.text());
  expect(offlineCopy).toContain("You&#x27;re offline");
  expect(offlineCopy).not.toContain(username);
  expect(offlineCopy).not.toContain(user.email);

  // Back online, "Try again" loads the page that failed.
  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create a room" })).toBeVisible();
  expect(errors).toEqual([]);
});
