import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { SupabaseClient } from "@supabase/supabase-js";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Listening together, four people in four browsers on uploaded files: the host plays, pauses,
// seeks and skips and both others follow each time; a late joiner lands at the live position; a
// follower has no controls and the database refuses its direct call; a follower offline for 10 s
// is back in step within 2 s of coming back; the host closes their page and the member here longest
// takes over, with playback going on, as that follower does after being offline — ahead of a fourth
// member who came later, whose page waits its turn. Visitors who are not members are told, and
// refused by the channel. A post that plays out moves the session on to the next in the queue.

test.describe.configure({ timeout: 240_000 });

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;
/** When the page's Realtime socket opened and sent each heartbeat (ms, the test's clock). */
type SocketTimes = { openedAt: number | null; heartbeats: number[] };
type Seat = { context: BrowserContext; page: Page; errors: string[]; socket: SocketTimes };

function watchRealtimeSocket(page: Page): SocketTimes {
  const times: SocketTimes = { openedAt: null, heartbeats: [] };
  page.on("websocket", (socket) => {
    if (!socket.url().includes("/realtime/v1/websocket")) return;
    times.openedAt = Date.now();
    socket.on("framesent", (frame) => {
      if (typeof frame.payload === "string" && frame.payload.includes('"phoenix","heartbeat"')) times.heartbeats.push(Date.now());
    });
  });
  return times;
}

async function seat(browser: Browser, person: Person, path: string, { goesOffline = false } = {}): Promise<Seat> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Taking over from a host who left is answered, never refused: a claim that loses the race (the
  // host still here, someone else first) is no failed request, so a 409 here is an error. Offline on
  // purpose: requests made then fail (a token refresh, a clock sample), and are made again once back.
  const errors = await watchConsole(page, {
    expectedFailures: goesOffline ? [/\/auth\/v1\/token\?grant_type=refresh_token$/, /\/rest\/v1\//] : [],
  });
  const socket = watchRealtimeSocket(page);
  await signInWithPassword(page, person.email, person.password);
  await page.waitForURL("/");
  await page.goto(path);
  return { context, page, errors, socket };
}

const media = (page: Page) => page.locator("main audio:not([data-preload-next]), main video").first();
const timeOf = (page: Page) => media(page).evaluate((element: HTMLMediaElement) => element.currentTime);
const pausedOf = (page: Page) => media(page).evaluate((element: HTMLMediaElement) => element.paused);
const hostControls = (page: Page) => page.getByRole("region", { name: "You're hosting" });
const hostButton = (page: Page, name: string) => hostControls(page).getByRole("button", { name, exact: true });
const nowPlaying = (page: Page) => page.getByTestId("now-playing-title");

/** The session's part of the page (all but the comment form) shows exactly one primary (brand-coloured) button, and it is this one. */
async function expectOnePrimary(page: Page, name: string) {
  const primary = page.locator("main button.bg-accent:visible:not(section[aria-labelledby='session-moments'] button)");
  await expect(primary).toHaveCount(1);
  await expect(primary).toHaveText(name);
}

/** Both positions read as close together in time as the two pages allow. */
async function gap(a: Page, b: Page): Promise<number> {
  const [ta, tb] = await Promise.all([timeOf(a), timeOf(b)]);
  return Math.abs(ta - tb);
}

/** Each follower is within `tolerance` s of the leader (polled: they converge). */
async function expectInStep(leader: Page, followers: Page[], tolerance = 0.35, timeout = 10_000) {
  for (const follower of followers)
    await expect.poll(() => gap(leader, follower), { timeout, intervals: [100, 200, 250] }).toBeLessThan(tolerance);
}

async function expectPaused(pages: Page[], paused: boolean) {
  for (const page of pages) await expect.poll(() => pausedOf(page), { timeout: 5_000, intervals: [100] }).toBe(paused);
}

async function uploadTrack(client: SupabaseClient, roomId: string, userId: string, title: string, seconds: number): Promise<string> {
  const path = `${roomId}/${userId}/${randomUUID()}.wav`;
  const stored = await client.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
  expect(stored.error).toBeNull();
  const { data, error } = await client
    .from("posts")
    .insert({ room_id: roomId, author_id: userId, title, media_kind: "upload", storage_path: path, duration_seconds: seconds })
    .select("id")
    .single();
  expect(error).toBeNull();
  return (data as { id: string }).id;
}

async function joinSession(page: Page) {
  await page.getByRole("button", { name: "Join the session" }).click();
  await page.getByRole("button", { name: "Mute", exact: true }).click();
}

test("four people listen together: play, pause, seek and skip followed; a late joiner; a follower offline 10 s; the host leaves and the member here longest takes over, ahead of a later one", async ({
  browser,
}) => {
  const [ada, bo, cy, dee, outsider] = await Promise.all(
    ["listen-ada", "listen-bo", "listen-cy", "listen-dee", "listen-out"].map((name) => createConfirmedUser(name)),
  );
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "listen-together");
  await addMember(room.id, bo.id);
  await addMember(room.id, cy.id);
  await addMember(room.id, dee.id);
  const first = await uploadTrack(adaClient, room.id, ada.id, "Long tone", 180);
  const second = await uploadTrack(adaClient, room.id, ada.id, "Second tone", 90);
  const path = `/r/${room.slug}/listen`;

  // Ada starts the session with the first track, and starts listening.
  const a = await seat(browser, ada, path);
  await expect(a.page.getByRole("heading", { name: "Nobody is listening together right now" })).toBeVisible();
  await a.page.getByLabel("Start with").selectOption({ label: "Long tone" });
  await a.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(hostControls(a.page)).toBeVisible();
  await expect(nowPlaying(a.page)).toHaveText("Long tone");
  // The room's other post starts as the queue; paused, the host's one primary action is Play.
  await expect(a.page.getByRole("list", { name: "Queue" }).locator("[data-queue-title]")).toHaveText(["Second tone"]);
  await expectOnePrimary(a.page, "Play");
  await expect(a.page.getByRole("button", { name: "Start listening", exact: true })).toHaveCount(0);
  await a.page.getByRole("button", { name: "Mute", exact: true }).click();

  // Bo joins: no controls of the host's; one click to start hearing it.
  const b = await seat(browser, bo, path, { goesOffline: true });
  await expect(nowPlaying(b.page)).toHaveText("Long tone");
  await expect(b.page.getByText(/^Hosted by /)).toBeVisible();
  await joinSession(b.page);
  await expect(hostControls(b.page)).toHaveCount(0);
  await expect(b.page.getByRole("button", { name: "Pause" })).toHaveCount(0);
  await expect(b.page.getByRole("slider", { name: "Position" })).toHaveCount(0);

  // Play: Bo follows.
  await hostButton(a.page, "Play").click();
  await expectPaused([a.page, b.page], false);
  await expect.poll(() => timeOf(a.page), { timeout: 10_000 }).toBeGreaterThan(1);
  await expectInStep(a.page, [b.page]);

  // Pause: Bo stops where Ada stopped.
  await hostButton(a.page, "Pause").click();
  await expectPaused([a.page, b.page], true);
  await expectInStep(a.page, [b.page], 0.1);

  // Seek while paused, then play on: Bo lands there and plays on with Ada.
  await hostControls(a.page).getByRole("slider", { name: "Position" }).fill("60");
  await expect.poll(() => timeOf(b.page), { timeout: 5_000 }).toBeCloseTo(60, 0);
  await expectInStep(a.page, [b.page], 0.1);
  await hostButton(a.page, "Play").click();
  await expectPaused([a.page, b.page], false);
  await expect.poll(() => timeOf(b.page), { timeout: 5_000 }).toBeGreaterThan(60.5);
  await expectInStep(a.page, [b.page]);

  // A follower can't change playback: the database refuses Bo's own call.
  const boClient = await signedInClient(bo.email, bo.password);
  const { data: live } = await service
    .from("listening_sessions")
    .select("id, version")
    .eq("room_id", room.id)
    .is("ended_at", null)
    .single();
  const sessionId = (live as { id: string }).id;
  const refused = await boClient.rpc("set_session_playback", {
    session_id: sessionId,
    post_id: first,
    position_seconds: 5,
    playing: false,
    rate: 1,
  });
  expect(refused.error?.message).toBe("Only the host controls playback");
  await expectPaused([a.page, b.page], false);

  // Skip: the second track, queued when the session started; Bo follows.
  const queued = await service.from("session_queue").select("post_id, status").eq("session_id", sessionId);
  expect(queued.data).toEqual([{ post_id: second, status: "queued" }]);
  await hostButton(a.page, "Next in queue").click();
  await expect(nowPlaying(a.page)).toHaveText("Second tone");
  await expect(nowPlaying(b.page)).toHaveText("Second tone");
  await expect.poll(() => media(b.page).evaluate((element: HTMLMediaElement) => element.duration), { timeout: 10_000 }).toBeCloseTo(90, 0);
  await expectPaused([a.page, b.page], false);
  await expectInStep(a.page, [b.page]);

  // Cy joins late and lands at the live position.
  const c = await seat(browser, cy, path);
  await expect(nowPlaying(c.page)).toHaveText("Second tone");
  await joinSession(c.page);
  await expectPaused([c.page], false);
  await expectInStep(a.page, [c.page]);
  await checkPage(c.page, "listen-together-follower");
  await checkPage(a.page, "listen-together-host");
  await expectInStep(a.page, [b.page, c.page]);

  // Ada closes her page: Bo (here longest) takes over, and nobody's playback stops.
  const before = await timeOf(c.page);
  await a.page.close({ runBeforeUnload: true }); // as a person closing the tab: the page says it is leaving
  await expect(hostControls(b.page)).toBeVisible({ timeout: 15_000 });
  await expect(c.page.getByText(/^Hosted by /)).toContainText(
    (await service.from("profiles").select("display_name").eq("id", bo.id).single()).data!.display_name as string,
  );
  const { data: after } = await service.from("listening_sessions").select("host_id, playing").eq("id", sessionId).single();
  expect(after).toEqual({ host_id: bo.id, playing: true });
  await expectPaused([b.page, c.page], false);
  await expect.poll(() => timeOf(c.page)).toBeGreaterThan(before + 3);
  await expectInStep(b.page, [c.page]);

  // The new host pauses: Cy follows.
  await hostButton(b.page, "Pause").click();
  await expectPaused([b.page, c.page], true);

  // Bo hands the session to Cy: Cy gets the controls, Bo loses them.
  await b.page.getByRole("button", { name: /^Make .+ the host$/ }).click();
  await expect(hostControls(c.page)).toBeVisible({ timeout: 10_000 });
  await expect(hostControls(b.page)).toHaveCount(0);
  expect((await service.from("listening_sessions").select("host_id").eq("id", sessionId).single()).data).toEqual({ host_id: cy.id });

  // Dee joins: here after Bo, so after Bo in the order of who takes over.
  await hostButton(c.page, "Play").click();
  const d = await seat(browser, dee, path);
  await joinSession(d.page);
  await expectPaused([b.page, c.page, d.page], false);
  await expectInStep(c.page, [b.page, d.page]);

  // Bo is offline for 10 s while Cy, now hosting, seeks: back online, Bo is in step within 2 s. He goes
  // offline 3 s before his page's next Realtime heartbeat is due (realtime-js sends one 25 s after the
  // last), so it goes out while he is offline and is still unanswered as he comes back: the order of
  // events that used to close his socket then (and with it his place in line for a few moments).
  const lastBeat = Math.max(b.socket.openedAt ?? 0, ...b.socket.heartbeats);
  await b.page.waitForTimeout(Math.max(0, lastBeat + 22_000 - Date.now()));
  const offlineAt = Date.now();
  await b.context.setOffline(true);
  await b.page.waitForTimeout(2_000);
  await hostControls(c.page).getByRole("slider", { name: "Position" }).fill("5"); // well back from where it plays
  await b.page.waitForTimeout(8_000);
  expect(await gap(c.page, b.page)).toBeGreaterThan(1); // Bo heard nothing of the seek
  expect(b.socket.heartbeats.filter((at) => at > offlineAt).length).toBeGreaterThan(0);
  await b.context.setOffline(false);
  await expectInStep(c.page, [b.page], 0.35, 2_000);

  // Cy leaves: Bo, back from being offline, takes over at once (the quiet window is the server's only
  // wait); Dee, next in line, would claim only if Bo had not, and so never does.
  await c.page.close({ runBeforeUnload: true });
  await expect(hostControls(b.page)).toBeVisible({ timeout: 15_000 });
  expect((await service.from("listening_sessions").select("host_id").eq("id", sessionId).single()).data).toEqual({ host_id: bo.id });
  await expect(d.page.getByText(/^Hosted by /)).toContainText(
    (await service.from("profiles").select("display_name").eq("id", bo.id).single()).data!.display_name as string,
  );
  await expect(hostControls(d.page)).toHaveCount(0);
  await expectPaused([b.page, d.page], false);
  await expectInStep(b.page, [d.page]);

  // Someone who is not a member: the page says only members listen together; the channel refuses them.
  const v = await seat(browser, outsider, path);
  await expect(v.page.getByRole("heading", { name: "Only members can listen together" })).toBeVisible();
  await expect(media(v.page)).toHaveCount(0);
  const outsiderClient = await signedInClient(outsider.email, outsider.password);
  await outsiderClient.realtime.setAuth();
  const channel = outsiderClient.channel(`session:${room.id}`, { config: { private: true } });
  const joined = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, err) => resolve({ status, error: err })),
  );
  expect(joined.status).toBe("CHANNEL_ERROR");
  expect(joined.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: session:${room.id}`);
  await outsiderClient.removeAllChannels();

  for (const seated of [a, b, c, d, v]) expect(seated.errors).toEqual([]);
  await Promise.all([a, b, c, d, v].map((seated) => seated.context.close()));
});

/** How far the host's player got into a post's file while the page showed it (read once it has moved on). */
async function watchPlayOut(page: Page, title: string): Promise<() => Promise<number>> {
  await page.evaluate((shownTitle) => {
    const probe = { reached: 0 };
    Object.assign(window, { playOut: probe });
    const shown = document.querySelector("[data-testid=now-playing-title]");
    const element = document.querySelector<HTMLMediaElement>("main audio:not([data-preload-next])");
    element?.addEventListener("timeupdate", () => {
      if (shown?.textContent === shownTitle) probe.reached = Math.max(probe.reached, element.currentTime);
    });
  }, title);
  return () => page.evaluate(() => (window as unknown as { playOut: { reached: number } }).playOut.reached);
}

test("a post that plays out moves the session on to the next in the queue, at the media's own end when its stored length is shorter", async ({
  browser,
}) => {
  const host = await createConfirmedUser("listen-end");
  const hostClient = await signedInClient(host.email, host.password);
  const room = await createRoomAs(hostClient, "listen-end");
  // Stored as 2 s long while the file plays 4 s, as a provider's length in whole seconds can fall short.
  const short = await uploadTrack(hostClient, room.id, host.id, "Short tone", 4);
  expect((await service.from("posts").update({ duration_seconds: 2 }).eq("id", short)).error).toBeNull();
  const next = await uploadTrack(hostClient, room.id, host.id, "Next tone", 60);

  const h = await seat(browser, host, `/r/${room.slug}/listen`);
  await h.page.getByLabel("Start with").selectOption({ label: "Short tone" });
  await h.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(nowPlaying(h.page)).toHaveText("Short tone");
  // The room's other post was queued when the session started.
  await expect(h.page.getByRole("list", { name: "Queue" }).locator("[data-queue-title]")).toHaveText(["Next tone"]);
  await h.page.getByRole("button", { name: "Mute", exact: true }).click();
  const reached = await watchPlayOut(h.page, "Short tone");
  await expectOnePrimary(h.page, "Play");
  await hostButton(h.page, "Play").click();

  await expect(nowPlaying(h.page)).toHaveText("Next tone", { timeout: 15_000 });
  expect((await service.from("listening_sessions").select("post_id").eq("room_id", room.id).is("ended_at", null).single()).data).toEqual({
    post_id: next,
  });
  expect(await reached()).toBeGreaterThan(3.5); // not stopped at the stored 2 s
  await expectPaused([h.page], false);

  // Near the end of the last post, with nothing queued: it plays out, the session pauses at its end,
  // and the host has one thing to do — play it again (not "Start listening" beside "Play").
  await h.page.getByRole("slider", { name: "Position" }).fill("57");
  await expect(hostButton(h.page, "Play again")).toBeVisible({ timeout: 15_000 });
  await expectOnePrimary(h.page, "Play again");
  await expect(h.page.getByRole("button", { name: "Start listening", exact: true })).toHaveCount(0);
  await expect(hostButton(h.page, "Next in queue")).toBeDisabled();
  await h.page.getByRole("button", { name: "Unmute", exact: true }).click();
  await checkPage(h.page, "listen-played-out");
  await hostButton(h.page, "Play again").click();
  await expectOnePrimary(h.page, "Pause");
  expect(h.errors).toEqual([]);
  await h.context.close();
});

test("a member who keeps a departed host looking present (a forged presence) cannot stop the others taking over: the host's heartbeats decide", async ({
  browser,
}) => {
  const [host, member, forger] = await Promise.all(
    ["listen-forged-host", "listen-forged-member", "listen-forger"].map((name) => createConfirmedUser(name)),
  );
  const hostClient = await signedInClient(host.email, host.password);
  const room = await createRoomAs(hostClient, "listen-forged");
  await addMember(room.id, member.id);
  await addMember(room.id, forger.id);
  await uploadTrack(hostClient, room.id, host.id, "Held tone", 120);
  const path = `/r/${room.slug}/listen`;

  const h = await seat(browser, host, path, { goesOffline: true });
  await h.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(hostControls(h.page)).toBeVisible();
  const m = await seat(browser, member, path);
  await expect(m.page.getByRole("list", { name: "People listening" }).getByRole("listitem")).toHaveCount(2);
  await expect(hostControls(m.page)).toHaveCount(0);

  // The forger, with supabase-js and no page, shows a presence claiming to be the host — here since
  // the start of time, the owner — and never leaves.
  const forgerClient = await signedInClient(forger.email, forger.password);
  await forgerClient.realtime.setAuth();
  const { data: hostProfile } = await service.from("profiles").select("username, display_name").eq("id", host.id).single();
  const forged = forgerClient.channel(`session:${room.id}`, { config: { private: true, presence: { key: host.id } } });
  await new Promise<void>((resolve) => forged.subscribe((status) => status === "SUBSCRIBED" && resolve()));
  await forged.track({
    user_id: host.id,
    username: hostProfile!.username,
    display_name: hostProfile!.display_name,
    avatar_path: null,
    ens_name: null,
    ens_avatar: null,
    role: "owner",
    since: 0,
    following: true,
  });

  // The host's page drops off the network without a word (no release); its presence lingers, and the forged one stays.
  await h.context.setOffline(true);
  await expect(hostControls(m.page)).toBeVisible({ timeout: 30_000 });
  const { data: live } = await service.from("listening_sessions").select("host_id").eq("room_id", room.id).is("ended_at", null).single();
  expect(live?.host_id).toBe(member.id);

  await forgerClient.removeAllChannels();
  expect(m.errors).toEqual([]);
  await Promise.all([h.context.close(), m.context.close()]);
});
