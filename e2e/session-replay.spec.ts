import { expect, type Page, test } from "@playwright/test";
import type { SupabaseClient } from "@supabase/supabase-js";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Replaying an ended session: a real session (two uploaded tones, comments written while each
// played, a reaction) is played through the session's functions and ended; a member opens its
// replay from the room page's "Replay" line. Played, the comments pop up at their moments in the
// order they were written, the tracks play in order, and seeking shows exactly the comments made by
// then — back and forward, from the position bar and from the track list.

test.describe.configure({ timeout: 120_000 });

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ok<T>(answer: PromiseLike<{ data: T; error: { message: string } | null }>): Promise<T> {
  const { data, error } = await answer;
  if (error) throw new Error(error.message);
  return data;
}

async function comment(client: SupabaseClient, authorId: string, postId: string, sessionId: string, body: string): Promise<string> {
  const row = await ok(
    client
      .from("moments")
      .insert({ post_id: postId, author_id: authorId, at_seconds: 0.5, body, session_id: sessionId })
      .select("id")
      .single(),
  );
  return (row as { id: string }).id;
}

const commentsShown = (page: Page) => page.locator("[data-replay-comment]");
const shownBodies = async (page: Page) =>
  (await commentsShown(page).allTextContents()).map((text) => ["Opening", "Middle", "On the second"].find((b) => text.includes(b)));
const replayMs = async (page: Page) => Number(await page.getByTestId("replay-player").getAttribute("data-replay-ms"));
const seekTo = (page: Page, seconds: number) => page.getByRole("slider", { name: "Replay position" }).fill(String(seconds));

test("a replay of the ended session shows the comments at their moments", async ({ page }) => {
  const host = await createConfirmedUser("replay-host");
  const member = await createConfirmedUser("replay-member");
  const hostClient = await signedInClient(host.email, host.password);
  const memberClient = await signedInClient(member.email, member.password);
  const room = await createRoomAs(hostClient, "replay-room");
  await addMember(room.id, member.id);
  const first = await uploadTone(hostClient, room.id, host.id, "First tone", 30);
  const second = await uploadTone(hostClient, room.id, host.id, "Second tone", 30);

  // The session, as it happened: first plays; two comments (one gets a 🔥); second plays; a comment; ended.
  const session = (await ok(hostClient.rpc("start_listening_session", { room_id: room.id, post_id: first }))) as { id: string };
  await ok(hostClient.rpc("set_session_playback", { session_id: session.id, post_id: first, position_seconds: 0, playing: true }));
  await wait(2_000);
  const opening = await comment(memberClient, member.id, first, session.id, "Opening comment — what a start");
  await ok(hostClient.from("reactions").insert({ moment_id: opening, user_id: host.id, emoji: "🔥" }));
  await wait(2_000);
  await comment(memberClient, member.id, first, session.id, "Middle comment, still the first tone");
  await wait(1_500);
  await ok(hostClient.rpc("set_session_playback", { session_id: session.id, post_id: second, position_seconds: 0, playing: true }));
  await wait(2_000);
  await comment(memberClient, member.id, second, session.id, "On the second tone now");
  await wait(1_500);
  await ok(hostClient.rpc("end_listening_session", { session_id: session.id }));

  // When each comment was made, on the replay's clock (ms since the session started).
  const { data: stored } = await service.from("listening_sessions").select("started_at, ended_at").eq("id", session.id).single();
  const { data: rows } = await service.from("moments").select("body, created_at").eq("session_id", session.id).order("created_at");
  const start = Date.parse(stored!.started_at as string);
  const [atOpening, atMiddle, atSecond] = (rows ?? []).map((row) => Date.parse(row.created_at as string) - start);
  expect(atOpening).toBeLessThan(atMiddle!);
  expect(atMiddle).toBeLessThan(atSecond!);

  const errors = await watchConsole(page);
  await signInWithPassword(page, member.email, member.password);
  await page.waitForURL("/");
  await page.goto(`/r/${room.slug}`);
  const replays = page.getByRole("navigation", { name: "Replays of recent sessions" });
  await expect(replays).toContainText(/Replay · (Today's|Tonight's) session — under a minute, 2 tracks, 3 comments/);
  await checkPage(page, "room-replays");
  await replays.getByRole("link").first().click();
  await page.waitForURL(`/r/${room.slug}/sessions/${session.id}`);

  // The track list, in order, with their times; nothing has popped up yet.
  const tracks = page.getByRole("region", { name: "Tracks" }).getByRole("listitem");
  await expect(tracks).toHaveCount(2);
  await expect(tracks.nth(0)).toContainText("First tone");
  await expect(tracks.nth(0)).toContainText("at 0:00");
  await expect(tracks.nth(1)).toContainText("Second tone");
  await expect(commentsShown(page)).toHaveCount(0);
  await expect(page.getByText("Comments made during the session pop up here")).toBeVisible();

  // Played: each comment pops up when its moment comes, not before, in the order they were written.
  await page.getByRole("button", { name: "Play the replay" }).click();
  await expect(page.getByTestId("replay-track-title")).toHaveText("First tone");
  await expect(commentsShown(page)).toHaveCount(1, { timeout: atOpening! + 5_000 });
  expect(await replayMs(page)).toBeGreaterThanOrEqual(atOpening!);
  expect(await replayMs(page)).toBeLessThan(atMiddle!);
  await expect(commentsShown(page).first()).toContainText("Opening comment");
  await expect(commentsShown(page).first()).toContainText("🔥 1");
  await expect(commentsShown(page)).toHaveCount(2, { timeout: atMiddle! - atOpening! + 5_000 });
  expect(await replayMs(page)).toBeLessThan(atSecond!);
  expect(await shownBodies(page)).toEqual(["Opening", "Middle"]);
  // The tracks play in order: the second one's file plays once the replay reaches it.
  await expect(page.getByTestId("replay-track-title")).toHaveText("Second tone", { timeout: 10_000 });
  await expect(tracks.nth(1)).toHaveAttribute("aria-current", "true");
  await expect
    .poll(
      () =>
        page
          .locator("main audio")
          .first()
          .evaluate((media: HTMLMediaElement) => !media.paused && media.currentTime > 0),
      { timeout: 10_000 },
    )
    .toBe(true);
  await expect(commentsShown(page)).toHaveCount(3, { timeout: atSecond! + 5_000 });
  expect(await shownBodies(page)).toEqual(["Opening", "Middle", "On the second"]);

  // Seeking shows the right ones: back to the start (none), between the second and third, the end (all).
  await page.getByRole("button", { name: "Pause" }).click();
  await seekTo(page, 0);
  await expect(commentsShown(page)).toHaveCount(0);
  await expect(page.getByTestId("replay-track-title")).toHaveText("First tone");
  await seekTo(page, Math.ceil(atMiddle! / 1000));
  await expect(commentsShown(page)).toHaveCount(2);
  expect(await shownBodies(page)).toEqual(["Opening", "Middle"]);
  await seekTo(page, Math.floor(atOpening! / 1000) - 1);
  await expect(commentsShown(page)).toHaveCount(0);
  // From the track list: the second track's start, where the first two had been written.
  await page.getByRole("button", { name: "Replay from Second tone" }).click();
  await expect(page.getByTestId("replay-track-title")).toHaveText("Second tone");
  expect(await shownBodies(page)).toEqual(["Opening", "Middle"]);
  await seekTo(page, 999);
  await expect(commentsShown(page)).toHaveCount(3);
  await expect(page.getByTestId("replay-player")).toContainText("The session ended here");

  await checkPage(page, "session-replay");
  expect(errors).toEqual([]);
});

test("a public room's replay opens for a visitor; a gated room's only for its members", async ({ page }) => {
  const host = await createConfirmedUser("replay-gate-host");
  const outsider = await createConfirmedUser("replay-outsider");
  const hostClient = await signedInClient(host.email, host.password);
  const open = await createRoomAs(hostClient, "replay-open");
  const gated = await createRoomAs(hostClient, "replay-gated", true);
  const played: Record<string, string> = {};
  for (const room of [open, gated]) {
    const post = await uploadTone(hostClient, room.id, host.id, `Tone of ${room.name}`, 10);
    const session = (await ok(hostClient.rpc("start_listening_session", { room_id: room.id, post_id: post }))) as { id: string };
    await ok(hostClient.rpc("set_session_playback", { session_id: session.id, post_id: post, position_seconds: 0, playing: true }));
    await wait(1_000);
    await ok(hostClient.rpc("end_listening_session", { session_id: session.id }));
    played[room.id] = session.id;
  }
  // The one refusal on purpose: a session named under a room it is not in (404).
  const errors = await watchConsole(page, { expectedFailures: [new RegExp(`/r/${open.slug}/sessions/`)] });

  // Signed out, on the public room: the line on its page, and the replay.
  await page.goto(`/r/${open.slug}`);
  await page.getByRole("navigation", { name: "Replays of recent sessions" }).getByRole("link").first().click();
  await page.waitForURL(`/r/${open.slug}/sessions/${played[open.id]}`);
  await expect(page.getByRole("region", { name: "Tracks" }).getByRole("listitem")).toHaveText([/Tone of Replay open/]);
  await expect(page.getByRole("button", { name: "Play the replay" })).toBeVisible();
  // …not the gated room's: neither the line nor the page, even by its address.
  await page.goto(`/r/${gated.slug}`);
  await expect(page.getByRole("navigation", { name: "Replays of recent sessions" })).toHaveCount(0);
  await page.goto(`/r/${gated.slug}/sessions/${played[gated.id]}`);
  await expect(page.getByRole("heading", { name: "Only members can replay this room's sessions" })).toBeVisible();
  await expect(page.getByText("Tone of Replay gated")).toHaveCount(0);
  // A session of another room, named under this one, is not found.
  const wrongRoom = await page.goto(`/r/${open.slug}/sessions/${played[gated.id]}`);
  expect(wrongRoom?.status()).toBe(404);

  // Signed in but not a member of the gated room: the same.
  await signInWithPassword(page, outsider.email, outsider.password);
  await page.waitForURL("/");
  await page.goto(`/r/${gated.slug}/sessions/${played[gated.id]}`);
  await expect(page.getByRole("heading", { name: "Only members can replay this room's sessions" })).toBeVisible();
  await expect(page.getByText("Tone of Replay gated")).toHaveCount(0);
  expect(errors).toEqual([]);
});
