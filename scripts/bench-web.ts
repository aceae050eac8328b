// `npm run bench:web [bytes] [lighthouse] [dev] [previews]` (all four when none is named):
// - bytes: first-load JavaScript of the production build, as Chromium transfers it on a cold load
//   (compressed bytes of the scripts the page's HTML names, as Next.js counts "First Load JS": the
//   responses' bodies; their HTTP headers are printed apart), for
//   signed-out pages and signed-in ones; and beside it, every script fetched once the network is
//   idle (code a page loads after first paint: its live channel, its player);
// - lighthouse: Lighthouse's performance, accessibility and best-practices scores of those pages,
//   with its default settings (mobile, simulated slow 4G and 4× CPU slowdown: see
//   bench-web/lighthouse.ts for why), median of 5 runs (BENCH_WEB_LIGHTHOUSE_RUNS), with the
//   machine's benchmark index; then Chromium's installability errors for the site (bench-web/installable.ts);
// - dev: each route's first compile in `next dev`;
// - previews: the link-preview pictures' time to first byte (cold, warm, revalidated with the ETag).
// It ends with the budgets as pass/fail lines. Ports: BENCH_WEB_PORT (next start, default 3300),
// BENCH_WEB_DEV_PORT (next dev, default +10), BENCH_WEB_DEBUG_PORT (Chromium for Lighthouse, +20).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { createClient } from "@supabase/supabase-js";
import { type Cookie, chromium, type Page } from "@playwright/test";
import { loadConfig } from "@cuepoint/stack";
import { serviceRoleKey } from "@cuepoint/stack/keys";
import { binDir, repoRoot } from "@cuepoint/stack/paths";
import { devFirstCompiles } from "./bench-web/dev-compile.ts";
import { installabilityErrors } from "./bench-web/installable.ts";
import { type LighthouseResult, type LighthouseScores, lighthouseCategories, lighthouseScores } from "./bench-web/lighthouse.ts";
import { previewTimings } from "./bench-web/previews.ts";
import { startNext } from "./bench-web/server.ts";

const port = Number(process.env.BENCH_WEB_PORT ?? 3300);
const devPort = Number(process.env.BENCH_WEB_DEV_PORT ?? port + 10);
const debugPort = Number(process.env.BENCH_WEB_DEBUG_PORT ?? port + 20);
/** BENCH_WEB_ROUTES: measure only these pages, by their labels (e.g. "/embed/p/[id],/r/[slug]/p/[id]"); all by default. */
const onlyRoutes = process.env.BENCH_WEB_ROUTES?.split(",").map((route) => route.trim());
/** Lighthouse runs per page; the score is their median (one run swings by ten points here). */
const lighthouseRuns = Number(process.env.BENCH_WEB_LIGHTHOUSE_RUNS ?? 5);

const budgets = {
  signedOutKb: 150,
  signedInKb: 185,
  devCompileSeconds: 10,
  /** A preview picture rendered on a warm server (an unfurler waits a few seconds at most). */
  previewWarmMs: 1000,
  /** Lighthouse: the goal is 100 everywhere; no page may score under these. */
  lighthouseFloor: { performance: 95, accessibility: 100, "best-practices": 95 } satisfies LighthouseScores,
};

// The home page is measured both ways: signed in it leads with the account's own rooms.
// A room the bench creates for its account (open, so the signed-in visit shows Join/Leave; as its
// owner the account also opens the room's settings).
const benchRoom = `bench-room-${Date.now().toString(36)}`;
// The account's profile and the room's post are added once the bench has made them (their paths
// hold a username and an id).
const signedOutPages = ["/", "/login", "/signup", `/r/${benchRoom}`];
const signedInPages = ["/", "/account", "/rooms/new", `/r/${benchRoom}`, `/r/${benchRoom}/settings`, `/r/${benchRoom}/listen`];
// Signed out, as a newcomer's first visits would be (/account, /rooms/new and the room's settings
// redirect to sign-in after compiling); the room and post are the bench room's.
const devRoutes = [
  "/",
  "/login",
  "/signup",
  "/login/reset",
  "/account",
  "/account/password",
  "/u/nobody",
  "/auth/error",
  "/rooms/new",
  `/r/${benchRoom}`,
  `/r/${benchRoom}/settings`,
  `/r/${benchRoom}/listen`,
  "post",
  "embed",
];

// Measured with wallet sign-in on (a local client ID, as the e2e build uses), so /login shows that
// thirdweb stays out of the first load and what opening the wallet adds.
const appEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || "cuepoint-bench-local",
};

/**
 * Watches the scripts a page fetches (cache disabled): for each, whether its HTML named it (parser
 * initiated) and its compressed bytes — the body as sent (the JavaScript, what the budgets count) and
 * the HTTP/1.1 headers of this local server (which HTTP/2 compresses away in production).
 */
async function watchScripts(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  // The service worker an earlier page of this context installed would answer from its cache.
  await cdp.send("Network.setBypassServiceWorker", { bypass: true });
  const fromHtml = new Set<string>();
  const scripts = new Set<string>();
  const body = new Map<string, number>();
  const finished: { requestId: string; total: number }[] = [];
  cdp.on("Network.requestWillBeSent", (event) => event.initiator.type === "parser" && fromHtml.add(event.requestId));
  cdp.on("Network.responseReceived", (event) => event.type === "Script" && scripts.add(event.requestId));
  cdp.on("Network.dataReceived", (event) => body.set(event.requestId, (body.get(event.requestId) ?? 0) + event.encodedDataLength));
  cdp.on(
    "Network.loadingFinished",
    (event) => scripts.has(event.requestId) && finished.push({ requestId: event.requestId, total: event.encodedDataLength }),
  );
  return async () => {
    await cdp.detach();
    const sum = (only: (requestId: string) => boolean) => {
      const picked = finished.filter(({ requestId }) => only(requestId));
      const bodies = picked.reduce((bytes, { requestId }) => bytes + (body.get(requestId) ?? 0), 0);
      return { body: bodies, headers: picked.reduce((bytes, { total }) => bytes + total, 0) - bodies };
    };
    return { firstLoad: sum((id) => fromHtml.has(id)), all: sum(() => true) };
  };
}

type ScriptBytes = Awaited<ReturnType<Awaited<ReturnType<typeof watchScripts>>>>;

/** Compressed bytes of the scripts the page fetches while `action` runs. */
async function scriptBytesDuring(page: Page, action: () => Promise<unknown>): Promise<number> {
  const stop = await watchScripts(page);
  await action();
  await page.waitForLoadState("networkidle");
  return (await stop()).all.body;
}

/**
 * The scripts a page's HTML names (its first load), and every script it has fetched once the network
 * is idle (with what it loads after first paint: the live channel's client, a player).
 */
async function firstLoadAndLater(page: Page, url: string): Promise<ScriptBytes> {
  const stop = await watchScripts(page);
  await page.goto(url, { waitUntil: "networkidle" });
  return stop();
}

const kilobytes = ({ firstLoad, all }: ScriptBytes) => ({
  kb: firstLoad.body / 1024,
  headersKb: firstLoad.headers / 1024,
  idleKb: all.body / 1024,
});

interface PageFigures {
  route: string;
  signedIn: boolean;
  kb?: number;
  /** The HTTP headers of the first load's script responses (not counted in `kb`). */
  headersKb?: number;
  /** All scripts once the network is idle (first load and what the page loaded after it). */
  idleKb?: number;
  /** How the route is named in the report (e.g. /r/[slug]). */
  label?: string;
  lighthouse?: LighthouseResult;
}

const budgetLines: { ok: boolean; text: string }[] = [];
const budget = (ok: boolean, text: string) => budgetLines.push({ ok, text });

/** A 600×600 PNG in two colours blended, as a room's cover. */
function benchCover(): Buffer {
  const size = 600;
  const rows = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      rows.set([Math.round(109 + 142 * t), Math.round(40 + 106 * t), Math.round(217 - 157 * t)], y * (size * 3 + 1) + 1 + x * 3);
    }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * The bench's account, with a room of theirs holding one post: the room page, its settings, its
 * listening page, the post page (which loads its player after first paint) and the account's public
 * profile. Made once, for every part.
 */
const benchAccount = (() => {
  let made: Promise<{ email: string; password: string; username: string; postId: string }> | null = null;
  return () =>
    (made ??= (async () => {
      const config = loadConfig();
      const admin = createClient(`http://127.0.0.1:${config.apiPort}`, serviceRoleKey, { auth: { persistSession: false } });
      const email = `bench-${Date.now()}@bench.cuepoint.test`;
      const password = "bench-password-123";
      const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
      if (created.error) throw new Error(`Could not create the bench's account: ${created.error.message}`);
      const room = await admin
        .from("rooms")
        .insert({
          slug: benchRoom,
          name: "Bench room",
          description: "Where the web bench measures a room page.",
          owner_id: created.data.user.id,
        })
        .select("id")
        .single();
      const post = room.data
        ? await admin
            .from("posts")
            .insert({
              room_id: room.data.id,
              author_id: created.data.user.id,
              title: "Bench post",
              media_kind: "embed",
              media_url: "https://vimeo.com/76979871",
            })
            .select("id")
            .single()
        : null;
      if (!post?.data) throw new Error(`Could not create the bench's room and post: ${room.error?.message ?? post?.error?.message}`);
      // A cover, so the room's and the post's link-preview pictures fetch one from Storage as they draw.
      const cover = `${room.data!.id}/cover-bench.png`;
      const uploaded = await admin.storage.from("room-covers").upload(cover, benchCover(), { contentType: "image/png" });
      if (uploaded.error) throw new Error(`Could not upload the bench room's cover: ${uploaded.error.message}`);
      await admin.from("rooms").update({ cover_path: cover }).eq("id", room.data!.id);
      const profile = await admin.from("profiles").select("username").eq("id", created.data.user.id).single();
      if (!profile.data) throw new Error(`Could not read the bench account's profile: ${profile.error?.message}`);
      return { email, password, username: profile.data.username, postId: post.data.id };
    })());
})();

/** Builds, serves and measures the production build: bytes and/or Lighthouse per page. */
async function production(measureBytes: boolean, measureLighthouse: boolean, measurePreviews = false): Promise<void> {
  if (spawnSync(path.join(binDir, "next"), ["build"], { cwd: repoRoot, stdio: "inherit", env: appEnv }).status !== 0) process.exit(1);
  const { email, password, username, postId } = await benchAccount();
  const server = await startNext("start", port, appEnv);
  const label = (route: string) => route.replace(benchRoom, "[slug]").replace(postId, "[id]").replace(`/u/${username}`, "/u/[username]");
  const pages: PageFigures[] = [
    // The embeddable player (/embed/p/[id]) as another site's visitors load it: signed out.
    ...[...signedOutPages, `/u/${username}`, `/embed/p/${postId}`].map((route) => ({ route, label: label(route), signedIn: false })),
    ...[...signedInPages, `/r/${benchRoom}/p/${postId}`].map((route) => ({ route, label: label(route), signedIn: true })),
  ].filter((p) => !onlyRoutes || onlyRoutes.includes(p.label));
  let walletKb: number | null = null;
  let sessionCookies: Cookie[] = [];
  let installable: string[] | null = null;
  try {
    // First, while no page has loaded the preview route: its cold start is the route's own.
    if (measurePreviews) {
      const timings = await previewTimings(server.origin, [
        { label: "/r/[slug]", route: `/r/${benchRoom}` },
        { label: "/r/[slug]/p/[id]", route: `/r/${benchRoom}/p/${postId}` },
      ]);
      console.log(
        "\nLink-preview pictures (og:image, 1200×630 PNG, drawn with the room's cover from Storage): time to first byte, production build, local backend",
      );
      for (const t of timings)
        console.log(
          `  ${t.page.padEnd(22)} cold ${t.coldMs.toFixed(0).padStart(5)} ms   warm ${t.warmMs.toFixed(0).padStart(5)} ms (median)   revalidated (304) ${t.revalidatedMs.toFixed(0).padStart(4)} ms   ${(t.bytes / 1024).toFixed(1)} KB`,
        );
      for (const t of timings)
        budget(t.warmMs < budgets.previewWarmMs, `preview picture ${t.page} warm ${t.warmMs.toFixed(0)} ms < ${budgets.previewWarmMs} ms`);
      if (!measureBytes && !measureLighthouse) return;
    }
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
    });
    for (const figures of pages.filter((p) => !p.signedIn)) {
      const page = await (await browser.newContext()).newPage();
      if (measureBytes) Object.assign(figures, kilobytes(await firstLoadAndLater(page, `${server.origin}${figures.route}`)));
      else await page.goto(`${server.origin}${figures.route}`);
      const walletButton = page.getByRole("button", { name: "Connect wallet and sign in" });
      if (measureBytes && figures.route === "/login" && (await walletButton.count()) > 0) {
        // What opening the wallet adds (thirdweb, loaded on demand); this browser has no wallet.
        walletKb =
          (await scriptBytesDuring(page, async () => {
            await walletButton.click();
            await page.getByText("No wallet found").waitFor({ timeout: 30_000 });
          })) / 1024;
      }
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/login`);
    const form = page.getByRole("form", { name: "Sign in with your password" });
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill(password);
    await form.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${server.origin}/`);
    sessionCookies = await context.cookies();
    for (const figures of pages.filter((p) => p.signedIn)) {
      const cold = await context.newPage();
      if (measureBytes) Object.assign(figures, kilobytes(await firstLoadAndLater(cold, `${server.origin}${figures.route}`)));
      if (new URL(cold.url()).pathname !== figures.route && measureBytes)
        throw new Error(`${figures.route} did not open signed in (ended at ${cold.url()})`);
    }
    await browser.close();

    if (measureLighthouse) {
      const scores = await lighthouseScores(
        pages.map((p) => ({ url: `${server.origin}${p.route}`, cookies: p.signedIn ? sessionCookies : undefined })),
        debugPort,
        lighthouseRuns,
      );
      pages.forEach((p, index) => (p.lighthouse = scores[index]));
      installable = await installabilityErrors(server.origin);
    }
  } finally {
    server.stop();
  }

  if (measureBytes) {
    console.log(
      "\nJavaScript (compressed bytes as sent, cold cache): first load (the scripts the HTML names) and all scripts once the network is idle",
    );
    for (const p of pages) {
      console.log(
        `  ${(p.label ?? p.route).padEnd(22)} ${p.kb!.toFixed(1).padStart(7)} KB first load ${p.idleKb!.toFixed(1).padStart(7)} KB once idle   ${(p.signedIn ? "signed in" : "signed out").padEnd(10)}  (+${p.headersKb!.toFixed(1)} KB of HTTP/1.1 headers on the first load's scripts)`,
      );
    }
    if (walletKb === null) console.log("  (wallet sign-in is off in this build: NEXT_PUBLIC_THIRDWEB_CLIENT_ID is not set)");
    else console.log(`  /login, then "Connect wallet" loads ${walletKb.toFixed(1)} KB more on demand (thirdweb)`);
    for (const p of pages) {
      const limit = p.signedIn ? budgets.signedInKb : budgets.signedOutKb;
      budget(
        p.kb! < limit,
        `first-load JS ${p.label ?? p.route} (${p.signedIn ? "signed in" : "signed out"}) ${p.kb!.toFixed(1)} KB < ${limit} KB`,
      );
    }
  }
  if (measureLighthouse) {
    const runs = pages[0].lighthouse!.runs.length;
    console.log(
      `\nLighthouse (production build; default settings: mobile, simulated slow 4G, 4× CPU slowdown; median of ${runs} runs): performance / accessibility / best practices`,
    );
    for (const p of pages) {
      const { scores, runs: each, benchmarkIndex, loadAverage } = p.lighthouse!;
      const runList = each.map((run) => lighthouseCategories.map((id) => run[id]).join("/")).join(", ");
      console.log(
        `  ${(p.label ?? p.route).padEnd(22)} ${lighthouseCategories.map((id) => String(scores[id]).padStart(3)).join(" / ")}   ${(p.signedIn ? "signed in" : "signed out").padEnd(10)}  runs: ${runList}; machine benchmark index ${Math.round(benchmarkIndex)}, load average ${loadAverage.toFixed(1)}`,
      );
    }
    const floor = budgets.lighthouseFloor;
    for (const p of pages) {
      const scores = p.lighthouse!.scores;
      const atGoal = lighthouseCategories.every((id) => scores[id] === 100);
      budget(
        lighthouseCategories.every((id) => scores[id] >= floor[id]),
        `Lighthouse ${p.label ?? p.route} ${lighthouseCategories.map((id) => scores[id]).join("/")} ≥ ${lighthouseCategories.map((id) => floor[id]).join("/")}${atGoal ? "" : " (goal 100/100/100 not yet met)"}`,
      );
    }
  }
  if (installable) {
    console.log(`\nInstallable (Chromium's own check, which Lighthouse 12 no longer makes): ${installable.length} installability errors`);
    for (const error of installable) console.log(`  ${error}`);
    budget(installable.length === 0, `installable: ${installable.length} installability errors = 0`);
  }
}

async function dev(): Promise<void> {
  const { postId } = await benchAccount();
  const label = (route: string) => route.replace(benchRoom, "[slug]").replace(postId, "[id]");
  const routes = devRoutes.map((route) =>
    route === "post" ? `/r/${benchRoom}/p/${postId}` : route === "embed" ? `/embed/p/${postId}` : route,
  );
  const results = (await devFirstCompiles(routes, devPort, appEnv)).map((r) => ({ ...r, route: label(r.route) }));
  console.log("\nFirst compile of each route in `next dev` (fresh .next/dev, routes in this order; HTML and its scripts):");
  console.log(`  ${"route".padEnd(20)} ${"status".padStart(6)} ${"wall s".padStart(7)} ${"CPU s".padStart(7)} ${"load".padStart(5)}`);
  for (const r of results)
    console.log(
      `  ${r.route.padEnd(20)} ${String(r.status).padStart(6)} ${r.seconds.toFixed(1).padStart(7)} ${r.cpuSeconds.toFixed(1).padStart(7)} ${r.loadAverage.toFixed(1).padStart(5)}`,
    );
  console.log("  (the first route also pays for starting the dev compiler; CPU s is the dev server's CPU time meanwhile,");
  console.log("  steadier than wall time on a shared machine; load is the one-minute load average when it had compiled)");
  for (const r of results)
    budget(
      r.seconds < budgets.devCompileSeconds,
      `dev first compile ${r.route} ${r.seconds.toFixed(1)} s < ${budgets.devCompileSeconds} s`,
    );
}

async function main() {
  const parts = new Set(process.argv.slice(2));
  for (const part of parts)
    if (!["bytes", "lighthouse", "dev", "previews"].includes(part))
      throw new Error(`Unknown part "${part}": use bytes, lighthouse, dev and/or previews`);
  const all = parts.size === 0;
  if (all || parts.has("bytes") || parts.has("lighthouse") || parts.has("previews"))
    await production(all || parts.has("bytes"), all || parts.has("lighthouse"), all || parts.has("previews"));
  if (all || parts.has("dev")) await dev();
  console.log("\nBudgets:");
  for (const line of budgetLines) console.log(`  ${line.ok ? "pass" : "FAIL"}  ${line.text}`);
}

await main();
