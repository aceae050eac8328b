// `npm run bench:sync`: how closely a listening session's followers play with its host, in Chromium,
// before and after the preloaded next player and the listeners' correction modes — in one run.
// A room with 1 host and two groups of 3 followers (BENCH_SYNC_FOLLOWERS per group), each in its
// own browser context, on the production build (`next build`, then `next start`;
// BENCH_SYNC_SKIP_BUILD=1 reuses a build), plays uploaded WAV files for a few minutes while the host
// plays, pauses, seeks and skips through a queue. Both groups hear the same session, the same host
// actions, on the same machine at the same time:
// - "before": the page as it played before (localStorage `cuepoint:listen-baseline` = 1: one
//   player whose file changes on "next", the next file only fetched into the cache ahead, the drift
//   controller's first policy of ±10 % nudges);
// - "after": as the page plays now (the next upload waiting in a second media element, swapped in;
//   correction mode BENCH_SYNC_MODE, default smooth: ±3 % nudges with the pitch preserved).
//
// Every page samples its player every 40 ms — the media element's `currentTime`, paused or not,
// its source — against a common clock (performance.timeOrigin + performance.now(), the same
// machine's clock in every context), and logs its media events (play, pause, seeked, playing…)
// with the same clock. From those:
// - drift: each follower's position minus the host's position at the same instant (the host's
//   samples interpolated), over samples where both play the same post. Excluded: each follower's
//   first 1 s after it started listening, and the first 1 s after each host action (those are the
//   settling the next figure measures). p50/p95/max of |drift|, per follower and overall.
// - action → follower: from the host's click (time taken in the host's page, just before the click)
//   to each follower's player reflecting it: pause → its `pause` event; play → `playing`; seek →
//   `seeked` at the new position; next → `playing` of the next post's file. p50/p95/max.
// - where a next's time goes: host click → the session's new row arriving on the follower's socket
//   (the RPC, Postgres, the broadcast), and that arrival → the follower's player playing (the page's
//   render, then the media element).
// Figures only: it never fails on wall-clock. Ports: BENCH_SYNC_PORT (next start, default 3400).
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { loadConfig } from "@cuepoint/stack";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";
import { binDir, repoRoot } from "@cuepoint/stack/paths";
import { percentile } from "@cuepoint/stack/realtime-bench";
import { wavFile } from "../tests/helpers/media-files.ts";
import { startNext } from "./bench-web/server.ts";

const port = Number(process.env.BENCH_SYNC_PORT ?? 3400);
const followerCount = Number(process.env.BENCH_SYNC_FOLLOWERS ?? 3);
const afterMode = process.env.BENCH_SYNC_MODE === "strict" ? "strict" : "smooth";
const groups = ["before", "after"] as const;
type Group = (typeof groups)[number];
/** Posts queued after the first: each "next" of the script plays one. */
const queuedTracks = 10;
/** Scales every wait of the script (0.25 for a quick look). */
const pace = Number(process.env.BENCH_SYNC_PACE ?? 1);
const settleMs = 1_000;
const config = loadConfig();
const api = `http://127.0.0.1:${config.apiPort}`;
const admin = createClient(api, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
const appEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

interface Sample {
  at: number;
  t: number;
  paused: boolean;
  src: string;
}
interface MediaEvent {
  type: string;
  at: number;
  t: number;
  src: string;
  /** From an element waiting with the next post (data-preload-next) at the time. */
  waiting: boolean;
}
interface Recorded {
  samples: Sample[];
  events: MediaEvent[];
  /** When a new version of the session's row arrived on the page's socket (common clock). */
  rows: number[];
}
type Action = { kind: "play" | "pause" | "seek" | "next"; at: number; to?: number };

async function person(label: string) {
  const email = `bench-sync-${label}-${Date.now().toString(36)}@bench.cuepoint.test`;
  const password = "bench-password-123";
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`);
  return { id: data.user.id, email, password };
}

async function fixture() {
  const host = await person("host");
  const followers = await Promise.all(
    groups.flatMap((group) => Array.from({ length: followerCount }, (_, i) => person(`${group}${i + 1}`).then((p) => ({ ...p, group })))),
  );
  const slug = `bench-sync-${Date.now().toString(36)}`;
  const room = await admin.from("rooms").insert({ slug, name: "Bench: listening together", owner_id: host.id }).select("id").single();
  if (!room.data) throw new Error(`could not create the room: ${room.error?.message}`);
  const roomId = room.data.id;
  const joined = await admin.from("memberships").insert(followers.map((f) => ({ room_id: roomId, user_id: f.id, role: "member" })));
  if (joined.error) throw new Error(`could not add members: ${joined.error.message}`);
  const upload = async (title: string, seconds: number) => {
    const file = `${roomId}/${host.id}/${randomUUID()}.wav`;
    const stored = await admin.storage.from("media").upload(file, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
    if (stored.error) throw new Error(`could not upload: ${stored.error.message}`);
    const post = await admin
      .from("posts")
      .insert({ room_id: roomId, author_id: host.id, title, media_kind: "upload", storage_path: file, duration_seconds: seconds })
      .select("id")
      .single();
    if (!post.data) throw new Error(`could not post: ${post.error?.message}`);
    return post.data.id;
  };
  const first = await upload("Bench tone one", 300);
  const queued = [];
  for (let i = 0; i < queuedTracks; i++) queued.push(await upload(`Bench tone ${i + 2}`, 240));
  const hostClient = createClient(api, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const signed = await hostClient.auth.signInWithPassword({ email: host.email, password: host.password });
  if (signed.error) throw new Error(signed.error.message);
  const started = await hostClient.rpc("start_listening_session", { room_id: roomId, post_id: first });
  if (started.error) throw new Error(`could not start the session: ${started.error.message}`);
  const sessionId = (started.data as { id: string }).id;
  for (const postId of queued) {
    const queue = await hostClient.from("session_queue").insert({ session_id: sessionId, post_id: postId, added_by: host.id });
    if (queue.error) throw new Error(`could not queue: ${queue.error.message}`);
  }
  return { host, followers, slug };
}

/** Samples the page's player and logs its media events against the common clock. */
function record(): void {
  const w = window as unknown as { __sync: Recorded };
  w.__sync ??= { samples: [], events: [], rows: [] };
  const clock = () => performance.timeOrigin + performance.now();
  // Each page signs its own URL for a file: the file is its path, without the signature.
  const fileOf = (media: HTMLMediaElement) => media.currentSrc.split("?")[0];
  // The player is the media element not waiting as the next one (data-preload-next); a waiting
  // element becomes the player when the session moves on, and may start playing just before the page
  // marks it so: its events are kept, marked, and only a next's "playing" counts them.
  const waiting = (media: HTMLMediaElement) => media.hasAttribute("data-preload-next");
  const seen = new WeakSet<HTMLMediaElement>();
  setInterval(() => {
    for (const media of document.querySelectorAll<HTMLMediaElement>("main audio, main video")) {
      if (seen.has(media)) continue;
      seen.add(media);
      for (const type of ["play", "playing", "pause", "seeking", "seeked", "loadstart", "emptied"]) {
        media.addEventListener(type, () =>
          w.__sync.events.push({ type, at: clock(), t: media.currentTime, src: fileOf(media), waiting: waiting(media) }),
        );
      }
    }
    const media = document.querySelector<HTMLMediaElement>("main audio:not([data-preload-next]), main video:not([data-preload-next])");
    if (media && media.readyState >= 1)
      w.__sync.samples.push({ at: clock(), t: media.currentTime, paused: media.paused, src: fileOf(media) });
  }, 40);
}

/** Before the page's own scripts: which group the page plays as, and a note of each session row arriving on its socket. */
function prepare({ baseline, mode }: { baseline: boolean; mode: string }): void {
  if (baseline) localStorage.setItem("cuepoint:listen-baseline", "1");
  else localStorage.removeItem("cuepoint:listen-baseline");
  localStorage.setItem("cuepoint:listen-sync", mode);
  const w = window as unknown as { __sync: Recorded };
  w.__sync = { samples: [], events: [], rows: [] };
  performance.setResourceTimingBufferSize(100_000); // the host's requests to the session's functions, all of them
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener("message", (event: MessageEvent) => {
        if (typeof event.data === "string" && event.data.includes('"event":"session"'))
          w.__sync.rows.push(performance.timeOrigin + performance.now());
      });
    }
  };
}

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/login`);
  const form = page.getByRole("form", { name: "Sign in with your password" });
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${origin}/`);
}

async function seat(
  browser: Browser,
  origin: string,
  who: { email: string; password: string },
  slug: string,
  button: string | null,
  group: Group,
): Promise<{ context: BrowserContext; page: Page; startedAt: number; group: Group }> {
  const context = await browser.newContext();
  await context.addInitScript(prepare, { baseline: group === "before", mode: afterMode });
  const page = await context.newPage();
  await signIn(page, origin, who.email, who.password);
  await page.goto(`${origin}/r/${slug}/listen`);
  await page.evaluate(record);
  // The host starts hearing it with their first action (every control of theirs arms the page).
  if (button) await page.getByRole("button", { name: button }).click();
  else await page.getByRole("region", { name: "You're hosting" }).waitFor();
  const startedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
  return { context, page, startedAt, group };
}

/** Runs a host action in the host's page, taking the common clock just before it. */
async function act(host: Page, kind: Action["kind"], to?: number): Promise<Action> {
  const at = await host.evaluate(
    ({ kind, to }) => {
      const controls = document.querySelector<HTMLElement>("section[aria-labelledby='host-controls']");
      if (!controls) throw new Error("no host controls");
      const now = performance.timeOrigin + performance.now();
      if (kind === "seek") {
        const slider = controls.querySelector<HTMLInputElement>("input[type='range']")!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(slider, String(to));
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        slider.dispatchEvent(new Event("change", { bubbles: true }));
      } else {
        const label = { play: "Play", pause: "Pause", next: "Next in queue" }[kind];
        const button = [...controls.querySelectorAll("button")].find((b) => b.textContent?.trim() === label);
        if (!button) throw new Error(`no ${label} button`);
        button.click();
      }
      return now;
    },
    { kind, to },
  );
  return { kind, at, to };
}

/** The host's position at `at` (interpolated between its samples), when it played continuously around then. */
function hostPositionAt(samples: Sample[], at: number, src: string): number | null {
  let lo = 0;
  let hi = samples.length - 1;
  if (hi < 1 || at < samples[0].at || at > samples[hi].at) return null;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid].at <= at) lo = mid;
    else hi = mid;
  }
  const a = samples[lo];
  const b = samples[hi];
  if (a.paused || b.paused || a.src !== src || b.src !== src || b.at - a.at > 250) return null;
  const rate = (b.t - a.t) / ((b.at - a.at) / 1000);
  if (rate < 0.5 || rate > 2) return null; // a seek between the two
  return a.t + ((at - a.at) / 1000) * rate;
}

function stats(values: number[]) {
  if (!values.length) return { n: 0, p50: Number.NaN, p95: Number.NaN, max: Number.NaN };
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), max: Math.max(...values) };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0).padStart(4)} ms` : "   — ms");

function reflected(action: Action, events: MediaEvent[], hostSrcAfter: string | null): number | null {
  const after = events.filter((event) => event.at >= action.at && (action.kind === "next" || !event.waiting));
  const hit =
    action.kind === "pause"
      ? after.find((e) => e.type === "pause")
      : action.kind === "play"
        ? after.find((e) => e.type === "playing")
        : action.kind === "seek"
          ? after.find((e) => e.type === "seeked" && Math.abs(e.t - (action.to ?? 0)) < 1.5)
          : after.find((e) => e.type === "playing" && hostSrcAfter !== null && e.src === hostSrcAfter);
  return hit ? hit.at - action.at : null;
}

async function main() {
  if (process.env.BENCH_SYNC_SKIP_BUILD !== "1") {
    console.log("Building the app (next build) …");
    if (spawnSync(path.join(binDir, "next"), ["build"], { cwd: repoRoot, stdio: "inherit", env: appEnv }).status !== 0) process.exit(1);
  }
  const server = await startNext("start", port, appEnv);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
      "--autoplay-policy=no-user-gesture-required",
      "--mute-audio",
      "--disable-renderer-backgrounding",
      "--disable-background-timer-throttling",
    ],
  });
  try {
    const { host, followers, slug } = await fixture();
    const hostSeat = await seat(browser, server.origin, host, slug, null, "after");
    const followerSeats = [];
    // The groups take turns joining, so neither is favoured by when it came.
    const turns = followers.map((f, i) => ({ f, turn: i % followerCount })).sort((a, b) => a.turn - b.turn);
    for (const { f } of turns) followerSeats.push(await seat(browser, server.origin, f, slug, "Join the session", f.group));
    console.log(
      `1 host and ${followers.length} followers (${followerCount} before, ${followerCount} after: ${afterMode}) listening, each in its own Chromium context (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
    );

    const wait = (seconds: number) => hostSeat.page.waitForTimeout(seconds * 1000 * pace);
    const actions: Action[] = [];
    const script: [Action["kind"], number | undefined, number][] = [
      ["play", undefined, 25],
      ["pause", undefined, 5],
      ["play", undefined, 15],
      ["seek", 120, 15],
      ["seek", 40, 12],
      ["next", undefined, 15],
      ["pause", undefined, 4],
      ["seek", 200, 3],
      ["play", undefined, 15],
      ["next", undefined, 15],
      ["seek", 90, 12],
      ["next", undefined, 15],
      ["pause", undefined, 4],
      ["play", undefined, 12],
      ["next", undefined, 15],
      ["next", undefined, 15],
      ["seek", 60, 10],
      ["next", undefined, 15],
      ["next", undefined, 12],
      ["pause", undefined, 4],
      ["play", undefined, 12],
      ["next", undefined, 12],
      ["next", undefined, 12],
      ["next", undefined, 12],
    ];
    for (const [kind, to, seconds] of script) {
      actions.push(await act(hostSeat.page, kind, to));
      await wait(seconds);
    }

    const read = (page: Page) => page.evaluate(() => (window as unknown as { __sync: Recorded }).__sync);
    const hostData = await read(hostSeat.page);
    // The host's requests for "next": when each left the page and when its answer came back.
    const nextRequests = await hostSeat.page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((entry) => entry.name.includes("/rpc/play_next_in_session"))
        .map((entry) => ({
          start: performance.timeOrigin + entry.startTime,
          end: performance.timeOrigin + (entry as PerformanceResourceTiming).responseEnd,
        })),
    );
    const clickToRequest: number[] = [];
    const requestTime: number[] = [];
    for (const action of actions.filter((a) => a.kind === "next")) {
      const request = nextRequests.find((r) => r.start >= action.at - 1);
      if (!request) continue;
      clickToRequest.push(request.start - action.at);
      requestTime.push(request.end - request.start);
    }
    const excluded = (at: number, startedAt: number) =>
      at < startedAt + settleMs || actions.some((action) => at >= action.at && at < action.at + settleMs);
    // The file the host plays after each next (its first `playing` of another file).
    const nextSrcOf = (action: Action) =>
      action.kind === "next"
        ? (hostData.events.find(
            (e) => e.at >= action.at && e.type === "playing" && e.src !== hostData.samples.find((x) => x.at >= action.at - 100)?.src,
          )?.src ?? null)
        : null;

    type Figures = {
      drift: number[];
      latencies: Record<Action["kind"], number[]>;
      toRow: number[];
      rowToPlaying: number[];
      missed: number;
    };
    const figures: Record<Group, Figures> = {
      before: { drift: [], latencies: { play: [], pause: [], seek: [], next: [] }, toRow: [], rowToPlaying: [], missed: 0 },
      after: { drift: [], latencies: { play: [], pause: [], seek: [], next: [] }, toRow: [], rowToPlaying: [], missed: 0 },
    };
    console.log(
      `\nDrift: follower position − host position at the same instant, |ms|, both playing the same post; excluded: each follower's first ${settleMs} ms after it started listening and the first ${settleMs} ms after each of the host's ${actions.length} actions`,
    );
    for (const [i, seated] of followerSeats.entries()) {
      const data = await read(seated.page);
      const mine = figures[seated.group];
      const drifts: number[] = [];
      for (const sample of data.samples) {
        if (sample.paused || excluded(sample.at, seated.startedAt)) continue;
        const hostAt = hostPositionAt(hostData.samples, sample.at, sample.src);
        if (hostAt === null) continue;
        drifts.push(Math.abs(sample.t - hostAt) * 1000);
      }
      mine.drift.push(...drifts);
      const s = stats(drifts);
      console.log(
        `  follower ${i + 1} (${seated.group.padEnd(6)}): ${String(s.n).padStart(5)} samples   p50 ${ms(s.p50)}   p95 ${ms(s.p95)}   max ${ms(s.max)}`,
      );
      for (const [index, action] of actions.entries()) {
        const latency = reflected(action, data.events, nextSrcOf(action));
        // A play after a pause the follower never paused for (or a seek it was already at) is not counted twice.
        if (latency === null || (index + 1 < actions.length && latency > actions[index + 1].at - action.at)) {
          mine.missed++;
          continue;
        }
        mine.latencies[action.kind].push(latency);
        if (action.kind !== "next") continue;
        const row = data.rows.find((at) => at >= action.at);
        if (row !== undefined && row - action.at <= latency) {
          mine.toRow.push(row - action.at);
          mine.rowToPlaying.push(latency - (row - action.at));
        }
      }
    }
    const line = (label: string, values: number[], extra = "") => {
      const k = stats(values);
      console.log(`  ${label}   ${String(k.n).padStart(5)}×   p50 ${ms(k.p50)}   p95 ${ms(k.p95)}   max ${ms(k.max)}${extra}`);
      return k;
    };
    console.log("  all followers, by group:");
    const drift = Object.fromEntries(groups.map((g) => [g, line(`${g.padEnd(6)}`, figures[g].drift)])) as Record<
      Group,
      ReturnType<typeof stats>
    >;
    console.log(
      `  goal p95 < 100 ms: before ${drift.before.p95 < 100 ? "met" : "NOT met"}, after ${drift.after.p95 < 100 ? "met" : "NOT met"}; after no worse than before (p95 within 10 ms): ${drift.after.p95 <= drift.before.p95 + 10 ? "yes" : "NO"}`,
    );

    console.log(
      `\nHost action → follower's player reflecting it (${followerCount} followers per group × ${actions.length} actions; pause → pause event, play → playing, seek → seeked at the new position, next → playing the next file):`,
    );
    const nextP95: Partial<Record<Group, number>> = {};
    for (const kind of ["play", "pause", "seek", "next"] as const)
      for (const g of groups) {
        const k = line(`${kind.padEnd(5)} ${g.padEnd(6)}`, figures[g].latencies[kind]);
        if (kind === "next") nextP95[g] = k.p95;
      }
    for (const g of groups) {
      const every = Object.values(figures[g].latencies).flat();
      line(`all   ${g.padEnd(6)}`, every, figures[g].missed ? `   (${figures[g].missed} not seen within the action's window)` : "");
    }
    console.log(
      `  goal next p95 < 100 ms (after): ${(nextP95.after ?? Infinity) < 100 ? "met" : "NOT met"} (before: ${ms(nextP95.before ?? NaN).trim()})`,
    );
    console.log("\nWhere a next's time goes (per follower and next):");
    line("host: click → request sent          ", clickToRequest);
    line("host: request → answer              ", requestTime);
    for (const g of groups) {
      line(`click → row on the socket   ${g.padEnd(6)}`, figures[g].toRow);
      line(`row → playing the next file ${g.padEnd(6)}`, figures[g].rowToPlaying);
    }
    console.log(`  (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
    for (const seated of [hostSeat, ...followerSeats]) await seated.context.close();
  } finally {
    await browser.close();
    server.stop();
  }
}

await main();
process.exit(0);
