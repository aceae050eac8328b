import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import type { SupabaseClient } from "@supabase/supabase-js";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Gapless changes and music-friendly correction, host and follower in two browsers on uploaded
// files. While a post plays, the follower's page keeps the next queued file waiting in a second
// media element (loaded, paused, muted, hidden); on the host's "next", that very element becomes the
// player and plays, with the person's mute carried over. The follower keeps in step smoothly by
// default: pushed a second off, their player is not jumped but nudged by at most 3 % with the pitch
// kept, and "Resync" brings it back at once; switched to strict (remembered in this browser), the
// same push is corrected on its own within moments.

test.describe.configure({ timeout: 180_000 });

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;

async function seat(browser: Browser, person: Person, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, person.email, person.password);
  await page.waitForURL("/");
  await page.goto(path);
  return { context, page, errors };
}

async function uploadTrack(client: SupabaseClient, roomId: string, userId: string, title: string, seconds: number) {
  const path = `${roomId}/${userId}/${randomUUID()}.wav`;
  const stored = await client.storage.from("media").upload(path, Buffer.from(wavFile(seconds)), { contentType: "audio/wav" });
  expect(stored.error).toBeNull();
  const { data, error } = await client
    .from("posts")
    .insert({ room_id: roomId, author_id: userId, title, media_kind: "upload", storage_path: path, duration_seconds: seconds })
    .select("id")
    .single();
  expect(error).toBeNull();
  return { id: (data as { id: string }).id, path };
}

const player = (page: Page) => page.locator("main audio:not([data-preload-next])");
const waiting = (page: Page) => page.locator("main audio[data-preload-next]");
const timeOf = (page: Page) => player(page).evaluate((media: HTMLMediaElement) => media.currentTime);
const gap = async (a: Page, b: Page) => {
  const [ta, tb] = await Promise.all([timeOf(a), timeOf(b)]);
  return Math.abs(ta - tb);
};
const expectInStep = (a: Page, b: Page, timeout: number) =>
  expect.poll(() => gap(a, b), { timeout, intervals: [100, 200, 250] }).toBeLessThan(0.3);
/** Moves the follower's own player ahead, as a stall or a slow device would leave it off the timeline. */
const pushAhead = (page: Page, seconds: number) =>
  player(page).evaluate((media: HTMLMediaElement, by) => {
    media.currentTime += by;
  }, seconds);

test("the next post plays from the player made ready while the last one played; smooth keeps in step without jumps, Resync and strict jump", async ({
  browser,
}) => {
  const [ada, bo] = await Promise.all(["sync-ada", "sync-bo"].map((name) => createConfirmedUser(name)));
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "listen-sync");
  await addMember(room.id, bo.id);
  await uploadTrack(adaClient, room.id, ada.id, "Opening tone", 120);
  const second = await uploadTrack(adaClient, room.id, ada.id, "Following tone", 120);
  const path = `/r/${room.slug}/listen`;

  const a = await seat(browser, ada, path);
  await a.page.getByLabel("Start with").selectOption({ label: "Opening tone" });
  await a.page.getByRole("button", { name: "Start listening together" }).click();
  await expect(a.page.getByRole("list", { name: "Queue" }).locator("[data-queue-title]")).toHaveText(["Following tone"]);
  await a.page.getByRole("button", { name: "Mute", exact: true }).click();

  const b = await seat(browser, bo, path);
  await b.page.getByRole("button", { name: "Join the session" }).click();
  await b.page.getByRole("button", { name: "Mute", exact: true }).click();
  await a.page.getByRole("region", { name: "You're hosting" }).getByRole("button", { name: "Play", exact: true }).click();
  await expect.poll(() => player(b.page).evaluate((media: HTMLMediaElement) => media.paused), { timeout: 5_000 }).toBe(false);

  // The next queued file waits in a second element: its own file, loaded, paused at its start, muted and hidden.
  await expect(waiting(b.page)).toHaveCount(1);
  await expect(waiting(b.page)).toHaveAttribute("data-deck", second.id);
  await expect
    .poll(() => waiting(b.page).evaluate((media: HTMLMediaElement) => media.readyState), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(3);
  const standby = await waiting(b.page).evaluate((media: HTMLMediaElement) => {
    (media as HTMLMediaElement & { madeReady?: boolean }).madeReady = true;
    return { paused: media.paused, at: media.currentTime, muted: media.muted, hidden: media.hidden, src: media.currentSrc };
  });
  expect(standby).toMatchObject({ paused: true, at: 0, muted: true, hidden: true });
  expect(standby.src).toContain(second.path);

  // The host moves on: the follower plays the very element that was waiting, with their mute carried over.
  await a.page.getByRole("region", { name: "You're hosting" }).getByRole("button", { name: "Next in queue" }).click();
  await expect(b.page.getByTestId("now-playing-title")).toHaveText("Following tone");
  await expect
    .poll(
      () =>
        player(b.page).evaluate((media: HTMLMediaElement) => ({
          madeReady: (media as HTMLMediaElement & { madeReady?: boolean }).madeReady === true,
          playing: !media.paused,
          muted: media.muted,
          hidden: media.hidden,
        })),
      { timeout: 5_000 },
    )
    .toEqual({ madeReady: true, playing: true, muted: true, hidden: false });
  await expect(b.page.locator("main audio")).toHaveCount(1); // nothing more queued: nothing waiting
  await expectInStep(a.page, b.page, 10_000);

  // Smooth by default: a second off is not jumped, only nudged (±3 %, pitch kept) …
  const choice = b.page.getByRole("group", { name: "Keep in step" });
  await expect(choice.getByRole("radio", { name: "Smooth" })).toBeChecked();
  await expect(b.page.getByText("Catches up gently, without a jump you'd hear.")).toBeVisible();
  await b.page.waitForTimeout(2_500); // past the moments after the host's change, when a jump is expected anyway
  await pushAhead(b.page, 1.2);
  await b.page.waitForTimeout(1_500);
  expect(await gap(a.page, b.page)).toBeGreaterThan(0.9);
  const nudged = await player(b.page).evaluate((media: HTMLMediaElement) => ({ rate: media.playbackRate, pitch: media.preservesPitch }));
  expect(nudged.pitch).toBe(true);
  expect(nudged.rate).toBeLessThan(1);
  expect(nudged.rate).toBeGreaterThanOrEqual(0.97 - 1e-6);
  await checkPage(b.page, "listen-sync-smooth");

  // … until "Resync" jumps to the live position at once.
  await b.page.getByRole("button", { name: "Resync" }).click();
  await expectInStep(a.page, b.page, 2_000);
  await expect.poll(() => player(b.page).evaluate((media: HTMLMediaElement) => media.playbackRate), { timeout: 3_000 }).toBe(1);

  // Strict, remembered in this browser: the same push is corrected on its own.
  await choice.getByText("Strict").click();
  await expect(choice.getByRole("radio", { name: "Strict" })).toBeChecked();
  await expect(b.page.getByText("Stays tighter with the host, skipping a little when it must.")).toBeVisible();
  expect(await b.page.evaluate(() => localStorage.getItem("cuepoint:listen-sync"))).toBe("strict");
  await pushAhead(b.page, 1.2);
  await expectInStep(a.page, b.page, 3_000);
  await checkPage(b.page, "listen-sync-strict");

  await b.page.reload();
  await b.page.getByRole("button", { name: "Join the session" }).click();
  await expect(b.page.getByRole("group", { name: "Keep in step" }).getByRole("radio", { name: "Strict" })).toBeChecked();

  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});
