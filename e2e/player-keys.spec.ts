import { crc32, deflateSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// The post page's player from the keyboard (Space/K, J/L, arrows, M, 0–9, `,`/`.`, C, `?`), never
// while typing, said to screen readers; and the lock screen's controls (the Media Session API): what
// plays, and handlers that move the real media element, captured as the page sets them.

const seconds = 40;

/** A small square PNG of one colour: a room's cover. */
function coverPng(size = 64): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x7a)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A room with a cover and a 40 s uploaded tone, commented at 0:06, 0:14 and 0:30 (and once generally). */
async function postWithComments() {
  const member = await createConfirmedUser("keys");
  const client = await signedInClient(member.email, member.password);
  const room = await createRoomAs(client, "keys-room");
  const coverPath = `${room.id}/cover-${Date.now()}.png`;
  expect((await service.storage.from("room-covers").upload(coverPath, coverPng(), { contentType: "image/png" })).error).toBeNull();
  expect((await service.from("rooms").update({ cover_path: coverPath }).eq("id", room.id)).error).toBeNull();
  const title = "Forty seconds of keys";
  const postId = await uploadTone(client, room.id, member.id, title, seconds);
  for (const at of [6, 14, 30, null]) {
    const { error } = await client
      .from("moments")
      .insert({ post_id: postId, author_id: member.id, at_seconds: at, body: at === null ? "Nice overall" : `Mark at ${at} s` } as never);
    if (error) throw error;
  }
  return { member, room, postId, title, coverPath, name: (await profileOf(member.id)).display_name };
}

const media = (page: Page) => page.locator("main audio");
const playerState = (page: Page) =>
  media(page).evaluate((element: HTMLMediaElement) => ({
    time: element.currentTime,
    paused: element.paused,
    volume: element.volume,
    muted: element.muted,
  }));
const time = async (page: Page) => (await playerState(page)).time;
const announcer = (page: Page) => page.locator("[data-player-announcer]");

/** Captures the handlers and position states the page gives the Media Session, passing them on. */
async function captureMediaSession(page: Page) {
  await page.addInitScript(() => {
    const session = navigator.mediaSession;
    const handlers: Record<string, ((details: object) => void) | null> = {};
    const positions: Array<MediaPositionState | null> = [];
    const setActionHandler = session.setActionHandler.bind(session);
    session.setActionHandler = (action, handler) => {
      handlers[action] = handler as ((details: object) => void) | null;
      setActionHandler(action, handler);
    };
    const setPositionState = session.setPositionState.bind(session);
    session.setPositionState = (state?: MediaPositionState) => {
      positions.push(state ?? null);
      setPositionState(state);
    };
    (window as unknown as { __mediaSession: object }).__mediaSession = { handlers, positions };
  });
}

type Captured = { handlers: Record<string, ((details: object) => void) | null>; positions: Array<MediaPositionState | null> };
const setHandlers = (page: Page) =>
  page.evaluate(() =>
    Object.entries((window as unknown as { __mediaSession: Captured }).__mediaSession.handlers)
      .filter(([, handler]) => handler !== null)
      .map(([action]) => action)
      .sort(),
  );
const invoke = (page: Page, action: string, details: object = {}) =>
  page.evaluate(
    ([name, more]) =>
      (window as unknown as { __mediaSession: Captured }).__mediaSession.handlers[name as string]!({ action: name, ...(more as object) }),
    [action, details] as const,
  );
const lastPosition = (page: Page) =>
  page.evaluate(() => {
    const positions = (window as unknown as { __mediaSession: Captured }).__mediaSession.positions;
    return positions[positions.length - 1] ?? null;
  });

test("the player's keys work, say what they did, rest while typing, and `?` lists them", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await watchConsole(page);
  const { member, room, postId, name } = await postWithComments();
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(media(page)).toBeAttached();
  await expect.poll(() => media(page).evaluate((element: HTMLMediaElement) => element.readyState)).toBeGreaterThanOrEqual(1);

  // M first (so the test is quiet), then play and pause; Space neither scrolls the page nor is lost.
  await page.keyboard.press("m");
  await expect(announcer(page)).toHaveText("Muted");
  expect((await playerState(page)).muted).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
  await page.keyboard.press("Space");
  await expect(announcer(page)).toHaveText("Playing");
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.keyboard.press("k");
  await expect(announcer(page)).toHaveText("Paused");
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);

  // 0–9 jump to tenths; J/L ten seconds; the arrows five.
  await page.keyboard.press("5");
  await expect(announcer(page)).toHaveText("50% — 0:20");
  await expect.poll(() => time(page)).toBeCloseTo(20, 1);
  await page.keyboard.press("l");
  await expect(announcer(page)).toHaveText("Forward 10 seconds — 0:30");
  await expect.poll(() => time(page)).toBeCloseTo(30, 1);
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await expect(announcer(page)).toHaveText("Back 10 seconds — 0:10");
  await expect.poll(() => time(page)).toBeCloseTo(10, 1);
  await page.keyboard.press("ArrowRight");
  await expect(announcer(page)).toHaveText("Forward 5 seconds — 0:15");
  await expect.poll(() => time(page)).toBeCloseTo(15, 1);
  await page.keyboard.press("ArrowLeft");
  await expect(announcer(page)).toHaveText("Back 5 seconds — 0:10");
  await expect.poll(() => time(page)).toBeCloseTo(10, 1);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  // Volume by tenths (unmuting), and mute again.
  await page.keyboard.press("ArrowDown");
  await expect(announcer(page)).toHaveText("Volume 90%");
  expect(await playerState(page)).toMatchObject({ volume: 0.9, muted: false });
  await page.keyboard.press("ArrowDown");
  await expect(announcer(page)).toHaveText("Volume 80%");
  await page.keyboard.press("ArrowUp");
  await expect(announcer(page)).toHaveText("Volume 90%");
  expect((await playerState(page)).volume).toBeCloseTo(0.9, 5);
  await page.keyboard.press("m");
  await expect(announcer(page)).toHaveText("Muted");

  // `.` and `,`: the next and previous comment (played and highlighted, as its marker would).
  await page.keyboard.press(".");
  await expect(announcer(page)).toHaveText(`Comment at 0:14 by ${name}: Mark at 14 s`);
  await expect.poll(() => time(page)).toBeGreaterThanOrEqual(14);
  await page.keyboard.press(",");
  await expect(announcer(page)).toHaveText(`Comment at 0:06 by ${name}: Mark at 6 s`);
  await expect.poll(() => time(page)).toBeGreaterThanOrEqual(6);
  expect(await time(page)).toBeLessThan(12);
  await page.keyboard.press("k");
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);

  // Typing in a field is typing: no key moves the player.
  const before = await playerState(page);
  const composer = page.getByRole("form", { name: "Add a comment" });
  const text = composer.getByLabel("Your comment");
  await text.click();
  await page.keyboard.type("k j l 5 m , . c ? ");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Space");
  await expect(text).toHaveValue("k j l 5 m , . c ?  ");
  expect(await playerState(page)).toEqual(before);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await text.fill("");

  // Space on a focused button presses that button only.
  const share = page.getByRole("button", { name: "Share this post" });
  await share.focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("dialog", { name: "Share this post" })).toBeVisible();
  expect((await playerState(page)).paused).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Share this post" })).toHaveCount(0);

  // C: a comment at the playing time, the focus in its text.
  await page.keyboard.press("3");
  await expect.poll(() => time(page)).toBeCloseTo(12, 1);
  await page.locator("h1").click();
  await page.keyboard.press("c");
  await expect(text).toBeFocused();
  await expect(composer.getByRole("textbox", { name: "Time" })).toHaveValue("0:12");
  await expect(announcer(page)).toHaveText("Comment at 0:12 — type your comment");
  await page.keyboard.type("Keys at twelve");
  await composer.getByRole("button", { name: "Comment at 0:12" }).click();
  await expect(composer.getByRole("status")).toHaveText("Posted.");
  const stored = await service.from("moments").select("at_seconds").eq("post_id", postId).eq("body", "Keys at twelve").single();
  expect(Number(stored.data?.at_seconds)).toBeCloseTo(12, 0);

  // `?`: the shortcuts in a modal dialog; Escape closes it and the focus goes back.
  await share.focus();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(help.getByRole("definition")).toHaveText([
    "Play or pause",
    "Back or forward 10 seconds",
    "Back or forward 5 seconds",
    "Volume up or down",
    "Mute or unmute",
    "Jump to 0%, 10%, … 90% of the track",
    "Previous or next comment",
    "Comment at the current time",
    "Show these shortcuts",
  ]);
  // While it is open the page behind is inert: Tab stays in the dialog, and a shortcut does nothing.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")) || document.activeElement === document.body)).toBe(
    true,
  );
  await page.keyboard.press("k");
  expect((await playerState(page)).paused).toBe(true);
  await checkPage(page, "player-keys-help");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: "e2e/screenshots/player-keys-help-dark-1280.png", fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
  await expect(share).toBeFocused();
  // Closed, the keys are the player's again.
  await page.locator("h1").click();
  await page.keyboard.press("0");
  await expect(announcer(page)).toHaveText("0% — 0:00");
  await expect.poll(() => time(page)).toBeCloseTo(0, 1);
  expect(errors).toEqual([]);
});

test("the lock screen shows the post and its controls move the player; they go when the page does", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const { member, room, postId, title, coverPath } = await postWithComments();
  await captureMediaSession(page);
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(media(page)).toBeAttached();
  await expect.poll(() => media(page).evaluate((element: HTMLMediaElement) => element.readyState)).toBeGreaterThanOrEqual(1);

  // What plays: the post, the room, and the room's cover in square sizes.
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title ?? null)).toBe(title);
  const metadata = await page.evaluate(() => {
    const { artist, album, artwork } = navigator.mediaSession.metadata!;
    return { artist, album, artwork: artwork.map(({ src, sizes }) => ({ src, sizes })) };
  });
  expect(metadata.artist).toBe(room.name);
  expect(metadata.album).toBe(room.name);
  expect(metadata.artwork.map((picture) => picture.sizes)).toEqual(["96x96", "192x192", "256x256", "512x512"]);
  for (const picture of metadata.artwork) expect(picture.src).toContain(`/room-covers/${coverPath.split("/")[0]}/`);
  expect(await setHandlers(page)).toEqual(["nexttrack", "pause", "play", "previoustrack", "seekbackward", "seekforward", "seekto"]);

  // Each handler moves the real media element; the position the lock screen holds follows.
  await media(page).evaluate((element: HTMLMediaElement) => (element.muted = true));
  await invoke(page, "play");
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.playbackState)).toBe("playing");
  await invoke(page, "pause");
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.playbackState)).toBe("paused");
  await invoke(page, "seekto", { seekTime: 20 });
  await expect.poll(() => time(page)).toBeCloseTo(20, 1);
  await expect.poll(async () => (await lastPosition(page))?.position).toBeCloseTo(20, 1);
  expect(await lastPosition(page)).toMatchObject({ duration: seconds, playbackRate: 1 });
  await invoke(page, "seekforward");
  await expect.poll(() => time(page)).toBeCloseTo(30, 1);
  await invoke(page, "seekbackward", { seekOffset: 5 });
  await expect.poll(() => time(page)).toBeCloseTo(25, 1);
  await expect.poll(async () => (await lastPosition(page))?.position).toBeCloseTo(25, 1);
  // Previous and next: the post's comments (the next one plays, as its marker would).
  await invoke(page, "nexttrack");
  await expect.poll(() => time(page)).toBeGreaterThanOrEqual(30);
  await invoke(page, "pause");
  await invoke(page, "previoustrack");
  await expect.poll(() => time(page)).toBeGreaterThanOrEqual(14);
  expect(await time(page)).toBeLessThan(20);
  await invoke(page, "pause");
  await expect.poll(async () => (await playerState(page)).paused).toBe(true);
  await media(page).evaluate((element: HTMLMediaElement) => (element.playbackRate = 1.5));
  await expect.poll(async () => (await lastPosition(page))?.playbackRate).toBe(1.5);

  // Leaving the post (a client-side navigation) clears what the lock screen showed.
  await page.getByRole("link", { name: `← ${room.name}` }).click();
  await page.waitForURL(`/r/${room.slug}`);
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata)).toBeNull();
  expect(await setHandlers(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("a key pressed before the shortcuts' code has arrived is kept and run once it has", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = await watchConsole(page);
  const { member, room, postId, title } = await postWithComments();
  // The code loads when the page is first idle: here that never comes, so it loads on the first press.
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(`/r/${room.slug}/p/${postId}`);
  await expect(media(page)).toBeAttached();
  await expect.poll(() => media(page).evaluate((element: HTMLMediaElement) => element.readyState)).toBeGreaterThanOrEqual(1);
  await media(page).evaluate((element: HTMLMediaElement) => (element.muted = true));
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => navigator.mediaSession.metadata)).toBeNull();
  await page.keyboard.press("Space");
  await expect(announcer(page)).toHaveText("Playing");
  await expect.poll(async () => (await playerState(page)).paused).toBe(false);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(title);
  await page.keyboard.press("k");
  await expect(announcer(page)).toHaveText("Paused");
  expect(errors).toEqual([]);
});

test("in a listening session the host's keys and lock screen move the session; a follower's move only their own listening", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [ada, bo] = await Promise.all([createConfirmedUser("keys-host"), createConfirmedUser("keys-follower")]);
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "keys-session");
  await service.from("memberships").insert({ room_id: room.id, user_id: bo.id, verified_at: new Date().toISOString() });
  await uploadTone(adaClient, room.id, ada.id, "Long keys tone", 120);
  await uploadTone(adaClient, room.id, ada.id, "Second keys tone", 60);
  const adaName = (await profileOf(ada.id)).display_name;
  const path = `/r/${room.slug}/listen`;
  const seat = async (person: typeof ada) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = await watchConsole(page);
    await captureMediaSession(page);
    await signInWithPassword(page, person.email, person.password);
    await page.waitForURL("/");
    await page.goto(path);
    return { page, errors };
  };
  const sessionMedia = (page: Page) => page.locator("main audio:not([data-preload-next]), main video").first();
  const at = (page: Page) => sessionMedia(page).evaluate((element: HTMLMediaElement) => element.currentTime);
  const paused = (page: Page) => sessionMedia(page).evaluate((element: HTMLMediaElement) => element.paused);
  const nowPlaying = (page: Page) => page.getByTestId("now-playing-title");

  // Ada hosts: Space plays the session (and starts her listening), L moves it on 10 s.
  const a = await seat(ada);
  await a.page.getByLabel("Start with").selectOption({ label: "Long keys tone" });
  await a.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(nowPlaying(a.page)).toHaveText("Long keys tone");
  await a.page.getByRole("button", { name: "Mute", exact: true }).click();
  await a.page.locator("h1").click();
  await a.page.keyboard.press("Space");
  await expect(announcer(a.page)).toHaveText("Playing");
  await expect.poll(() => paused(a.page)).toBe(false);
  await a.page.keyboard.press("l");
  await expect(announcer(a.page)).toHaveText(/^Forward 10 seconds — 0:1\d$/);
  await expect.poll(() => at(a.page)).toBeGreaterThan(10);

  // Her lock screen: the post and the room, with the session's controls (the queue as previous/next).
  await expect.poll(() => a.page.evaluate(() => navigator.mediaSession.metadata?.title ?? null)).toBe("Long keys tone");
  expect(await a.page.evaluate(() => navigator.mediaSession.metadata!.artist)).toBe(room.name);
  expect(await setHandlers(a.page)).toEqual(["nexttrack", "pause", "play", "previoustrack", "seekbackward", "seekforward", "seekto"]);
  await invoke(a.page, "seekto", { seekTime: 40 });
  await expect.poll(() => at(a.page)).toBeGreaterThan(39);
  await expect.poll(async () => (await lastPosition(a.page))?.duration).toBe(120);

  // Bo follows: his keys can't move the session, his lock screen says whom he follows.
  const b = await seat(bo);
  await expect(nowPlaying(b.page)).toHaveText("Long keys tone");
  await expect(b.page.getByText(`Hosted by ${adaName}`)).toBeVisible();
  await b.page.getByRole("button", { name: "Join the session" }).click();
  await b.page.getByRole("button", { name: "Mute", exact: true }).click();
  await expect.poll(() => paused(b.page)).toBe(false);
  await b.page.locator("h1").click();
  await b.page.keyboard.press("l");
  await expect(announcer(b.page)).toHaveText(`Only the host moves the session — you're following ${adaName}`);
  await b.page.keyboard.press(".");
  await expect(announcer(b.page)).toHaveText(`Only the host moves through the queue — you're following ${adaName}`);
  await expect.poll(() => b.page.evaluate(() => navigator.mediaSession.metadata?.artist ?? null)).toBe(`Following ${adaName}`);
  expect(await setHandlers(b.page)).toEqual(["pause", "play"]);
  // His pause stops only his listening; play joins the session again where it is.
  await invoke(b.page, "pause");
  await expect.poll(() => paused(b.page)).toBe(true);
  await expect(b.page.getByRole("button", { name: "Join the session" })).toBeVisible();
  expect(await paused(a.page)).toBe(false);
  await invoke(b.page, "play");
  await expect.poll(() => paused(b.page)).toBe(false);
  await expect.poll(async () => Math.abs((await at(a.page)) - (await at(b.page))), { timeout: 10_000 }).toBeLessThan(0.5);
  // The volume is his own: the keys set it, and the page's volume control follows them.
  await b.page.keyboard.press("m");
  await expect(announcer(b.page)).toHaveText("Unmuted — volume 100%");
  await expect(b.page.getByRole("button", { name: "Mute", exact: true })).toHaveAttribute("aria-pressed", "false");
  await b.page.keyboard.press("ArrowDown");
  await b.page.keyboard.press("ArrowDown");
  await expect(announcer(b.page)).toHaveText("Volume 80%");
  await b.page.waitForTimeout(1_500); // the control re-applies its level every second: it holds the keys' level
  expect(await sessionMedia(b.page).evaluate((element: HTMLMediaElement) => element.volume)).toBeCloseTo(0.8, 5);
  await b.page.keyboard.press("m");
  await expect(b.page.getByRole("button", { name: "Unmute", exact: true })).toHaveAttribute("aria-pressed", "true");
  // C: his comment at the time he hears.
  await b.page.keyboard.press("c");
  await expect(b.page.getByLabel("Comment on this moment")).toBeFocused();
  await expect(announcer(b.page)).toHaveText(/^Comment at \d:\d\d — type your comment$/);

  // The host's next (the lock screen's, or `.`): the queue's next post, for both.
  await invoke(a.page, "nexttrack");
  await expect(nowPlaying(a.page)).toHaveText("Second keys tone");
  await expect(nowPlaying(b.page)).toHaveText("Second keys tone");
  await expect.poll(() => a.page.evaluate(() => navigator.mediaSession.metadata?.title ?? null)).toBe("Second keys tone");
  await expect.poll(() => b.page.evaluate(() => navigator.mediaSession.metadata?.title ?? null)).toBe("Second keys tone");
  await a.page.locator("h1").click();
  await a.page.keyboard.press(".");
  await expect(announcer(a.page)).toHaveText("Nothing else is queued");
  await a.page.keyboard.press("k");
  await expect(announcer(a.page)).toHaveText("Paused");
  await expect.poll(() => paused(b.page)).toBe(true);

  // The help names the queue for `,`/`.` here.
  await b.page.locator("h1").click();
  await b.page.keyboard.press("?");
  await expect(b.page.getByRole("dialog", { name: "Keyboard shortcuts" }).getByRole("definition")).toContainText([
    "Previous or next in the queue (the host)",
  ]);
  await b.page.keyboard.press("Escape");
  await expect(b.page.getByRole("dialog")).toHaveCount(0);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});
