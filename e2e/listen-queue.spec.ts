import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { contracts } from "../chain/deployment";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { giveWallet } from "./support/rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// Around the session's player: the room page starts a session and shows it is on; the queue (the
// host adds, reorders, removes and accepts; a member suggests and withdraws; refusals in words);
// who is listening (ENS names, the host); comments made during the session pop up in everyone's
// ticker at their second and are ordinary comments on the post's timeline. Non-members are told
// to join.

const toneSeconds = 240;
const trackCount = 16;
const track = (n: number) => `Track ${String(n).padStart(2, "0")}`;

/** A room owned by the host, a member with an ENS name, a long uploaded tone and link posts to queue. */
async function listeningRoom() {
  const host = await createConfirmedUser("session-host");
  const member = await createConfirmedUser("session-member");
  const outsider = await createConfirmedUser("session-outsider");
  const hostClient = await signedInClient(host.email, host.password);
  const room = await createRoomAs(hostClient, "listen-room");
  await service.from("memberships").insert({ room_id: room.id, user_id: member.id, verified_at: new Date().toISOString() });
  await giveWallet(member.id, "listener.eth");

  const path = `${room.id}/${host.id}/${randomUUID()}.wav`;
  const stored = await hostClient.storage.from("media").upload(path, Buffer.from(wavFile(toneSeconds)), { contentType: "audio/wav" });
  if (stored.error) throw stored.error;
  const { data: tone, error } = await hostClient
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: host.id,
      title: "Opening tone",
      media_kind: "upload",
      storage_path: path,
      duration_seconds: toneSeconds,
    })
    .select("id")
    .single();
  if (error || !tone) throw error;
  const links = Array.from({ length: trackCount }, (_, index) => ({
    room_id: room.id,
    author_id: host.id,
    title: track(index + 1),
    media_kind: "embed",
    media_url: `https://media.cuepoint-files.com/track-${index + 1}.mp3`,
  }));
  const { data: tracks, error: linkError } = await hostClient.from("posts").insert(links).select("id, title");
  if (linkError || !tracks) throw linkError;
  const memberName = (await profileOf(member.id)).display_name as string;
  return { host, member, outsider, room, toneId: tone.id as string, tracks: tracks as { id: string; title: string }[], memberName };
}

async function signedInPage(browser: Browser, user: { email: string; password: string }, expectedFailures: RegExp[] = []) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = await watchConsole(page, { expectedFailures });
  await signInWithPassword(page, user.email, user.password);
  await page.waitForURL("/");
  return { page, errors, context };
}

const queue = (page: Page) => page.getByRole("list", { name: "Queue" });
const suggestions = (page: Page) => page.getByRole("list", { name: "Suggestions" });
const queuedTitles = (page: Page) => queue(page).locator("[data-queue-title]");
const ticker = (page: Page) => page.getByRole("list", { name: "Comments at this moment" });
const listeners = (page: Page) => page.getByRole("list", { name: "People listening" });

async function pick(page: Page, search: string, button: string) {
  const field = page.getByRole("searchbox", { name: /Add a post to the queue|Suggest a post/ });
  if (!(await field.isVisible())) await page.getByRole("button", { name: /^(Add posts|Suggest a post)$/ }).click();
  await field.fill(search);
  await page.getByRole("button", { name: button, exact: true }).click();
}

const queueRows = async (sessionId: string) =>
  (await service.from("session_queue").select("post_id, status, sort_key, added_by").eq("session_id", sessionId).order("sort_key")).data ??
  [];

test("the host starts a session, queues, reorders, removes and accepts; a member suggests and withdraws; comments pop up for everyone", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { host, member, room, toneId, tracks, memberName } = await listeningRoom();
  const hostSide = await signedInPage(browser, host);
  // The member's eleventh suggestion is refused on purpose (Chromium logs the 4xx).
  const memberSide = await signedInPage(browser, member, [/\/rest\/v1\/session_queue/]);
  const hostPage = hostSide.page;
  const memberPage = memberSide.page;
  const idOf = (title: string) => tracks.find((t) => t.title === title)!.id;

  // The room page: the owner starts the session and lands on it.
  await hostPage.goto(`/r/${room.slug}`);
  await hostPage.getByRole("button", { name: "Start listening together" }).click();
  await hostPage.waitForURL(`/r/${room.slug}/listen`);
  const { data: live } = await service
    .from("listening_sessions")
    .select("id, host_id")
    .eq("room_id", room.id)
    .is("ended_at", null)
    .single();
  expect(live?.host_id).toBe(host.id);
  const sessionId = live!.id as string;

  // The session starts with the room's ten newest posts queued (the tracks, posted after the tone),
  // and the host's one primary action is to play them.
  await expect(queuedTitles(hostPage)).toHaveCount(10);
  const started = await queueRows(sessionId);
  expect(started.map((row) => [row.status, row.added_by])).toEqual(Array.from({ length: 10 }, () => ["queued", host.id]));
  expect(started.every((row) => tracks.some((t) => t.id === row.post_id))).toBe(true);
  const playTheQueue = hostPage.getByRole("button", { name: "Play the queue", exact: true });
  await expect(playTheQueue).toHaveClass(/bg-accent/);
  await expect(hostPage.locator("main button.bg-accent:visible:not(section[aria-labelledby='session-moments'] button)")).toHaveCount(1);
  await checkPage(hostPage, "listen-started-with-queue");
  // This test builds its own queue: the started one goes.
  expect((await service.from("session_queue").delete().eq("session_id", sessionId)).error).toBeNull();
  await expect(queuedTitles(hostPage)).toHaveCount(0);

  // The host plays the tone and starts listening.
  await hostPage.getByLabel("Play a post now").selectOption({ label: "Opening tone" });
  // Acting as host also lets the page play its media (the click is the browser's permission).
  await hostPage.getByRole("button", { name: "Play now" }).click();

  // The member sees it on the room page, with how many listen, and joins.
  await memberPage.goto(`/r/${room.slug}`);
  await expect(memberPage.getByText("Listening together now").first()).toBeVisible();
  await expect(memberPage.locator("[data-listening-count]")).toHaveText(/— 1 listening/);
  await memberPage.getByRole("link", { name: "Join the session", exact: true }).click();
  await memberPage.waitForURL(`/r/${room.slug}/listen`);
  await memberPage.getByRole("button", { name: "Join the session" }).click();

  // Who is listening: the host marked; the member by the one name they have everywhere (their
  // display name, as the header and comments show it), their ENS name the second line.
  for (const page of [hostPage, memberPage]) {
    await expect(listeners(page).getByRole("listitem")).toHaveCount(2);
    await expect(listeners(page).getByRole("listitem").first()).toContainText("Host");
    const memberRow = listeners(page).locator("[data-listener]").filter({ hasText: memberName });
    await expect(memberRow.locator("[data-ens-name]")).toHaveText("listener.eth");
  }
  await expect(hostPage.getByRole("button", { name: `Make ${memberName} the host` })).toBeVisible();

  // A comment made during the session: stamped with the position and the session; it pops up at
  // once in the host's ticker (everyone is at that second).
  await memberPage.getByLabel("Comment on this moment").fill("Here comes the swell");
  await memberPage.getByRole("button", { name: /^Comment at \d+:\d\d$/ }).click();
  await expect(memberPage.getByRole("status").filter({ hasText: /Posted at \d+:\d\d\./ })).toBeVisible();
  await expect(ticker(hostPage).getByText("Here comes the swell")).toBeVisible();
  await expect(ticker(memberPage).getByText("Here comes the swell")).toBeVisible();
  const { data: made } = await service
    .from("moments")
    .select("id, session_id, post_id, at_seconds")
    .eq("body", "Here comes the swell")
    .eq("post_id", toneId)
    .single();
  expect(made).toMatchObject({ session_id: sessionId, post_id: toneId });
  expect(Number(made!.at_seconds)).toBeGreaterThanOrEqual(0);

  // A comment already on the post, a few seconds ahead: it pops up as playback passes it.
  const ahead = Math.ceil(Number(made!.at_seconds)) + 4;
  const hostClient = await signedInClient(host.email, host.password);
  const { error: aheadError } = await hostClient
    .from("moments")
    .insert({ post_id: toneId, author_id: host.id, at_seconds: ahead, body: "Listen for this bit" } as never);
  expect(aheadError).toBeNull();
  await expect(ticker(memberPage).getByText("Listen for this bit")).toBeVisible({ timeout: 15_000 });
  await expect(ticker(hostPage).getByText("Listen for this bit")).toBeVisible({ timeout: 15_000 });

  // The host adds posts from the picker, searched by title; the member sees them arrive.
  await pick(hostPage, track(2), `Add ${track(2)}`);
  await pick(hostPage, track(3), `Add ${track(3)}`);
  await pick(hostPage, track(1), `Add ${track(1)}`);
  await expect(queuedTitles(hostPage)).toHaveText([track(2), track(3), track(1)]);
  await expect(queuedTitles(memberPage)).toHaveText([track(2), track(3), track(1)]);
  // What is queued (or playing) is not offered again.
  await hostPage.getByRole("searchbox", { name: "Add a post to the queue" }).fill("Track 0");
  await expect(hostPage.getByRole("button", { name: `Add ${track(4)}`, exact: true })).toBeVisible();
  await expect(hostPage.getByRole("button", { name: `Add ${track(2)}`, exact: true })).toHaveCount(0);
  await hostPage.getByRole("searchbox", { name: "Add a post to the queue" }).fill("Opening");
  await expect(hostPage.getByText("No post titled like “Opening” to add.")).toBeVisible();

  // The member suggests one; the host sees who suggested it.
  await pick(memberPage, track(5), `Suggest ${track(5)}`);
  await expect(suggestions(memberPage).getByRole("listitem")).toContainText([`${track(5)}Suggested by you`]);
  await expect(suggestions(hostPage).getByRole("listitem")).toContainText([`${track(5)}Suggested by ${memberName}`]);
  expect((await queueRows(sessionId)).find((row) => row.post_id === idOf(track(5)))).toMatchObject({
    status: "suggested",
    added_by: member.id,
  });

  // The host accepts it (to the end of the queue), moves Track 01 up, and removes Track 03.
  await hostPage.getByRole("button", { name: `Accept ${track(5)}` }).click();
  await expect(queuedTitles(hostPage)).toHaveText([track(2), track(3), track(1), track(5)]);
  await hostPage.getByRole("button", { name: `Move ${track(1)} up` }).click();
  await expect(queuedTitles(hostPage)).toHaveText([track(2), track(1), track(3), track(5)]);
  // From the keyboard too.
  await hostPage.getByRole("button", { name: `Move ${track(2)} down` }).focus();
  await hostPage.keyboard.press("Enter");
  await expect(queuedTitles(hostPage)).toHaveText([track(1), track(2), track(3), track(5)]);
  await hostPage.getByRole("button", { name: `Remove ${track(3)} from the queue` }).click();
  await expect(queuedTitles(hostPage)).toHaveText([track(1), track(2), track(5)]);
  await expect(queuedTitles(memberPage)).toHaveText([track(1), track(2), track(5)]);
  await expect
    .poll(async () => (await queueRows(sessionId)).filter((row) => row.status === "queued").map((row) => row.post_id))
    .toEqual([track(1), track(2), track(5)].map(idOf));

  // The member withdraws a suggestion of their own.
  await pick(memberPage, track(6), `Suggest ${track(6)}`);
  await expect(suggestions(hostPage).getByRole("listitem")).toHaveCount(1);
  await memberPage.getByRole("button", { name: `Withdraw your suggestion of ${track(6)}` }).click();
  await expect(suggestions(memberPage)).toHaveCount(0);
  await expect(suggestions(hostPage)).toHaveCount(0);

  // Ten pending suggestions are the most: the eleventh is refused, in words, next to the picker.
  const memberClient = await signedInClient(member.email, member.password);
  for (let n = 6; n <= 15; n++) {
    const { error } = await memberClient
      .from("session_queue")
      .insert({ session_id: sessionId, post_id: idOf(track(n)), added_by: member.id } as never);
    expect(error).toBeNull();
  }
  await expect(suggestions(memberPage).getByRole("listitem")).toHaveCount(10);
  await pick(memberPage, track(16), `Suggest ${track(16)}`);
  await expect(memberPage.getByRole("alert").filter({ hasText: "You can suggest up to 10 posts at a time" })).toBeVisible();
  await expect(suggestions(memberPage).getByRole("listitem")).toHaveCount(10);

  // Listening on one's own shows in everyone's list; following again clears it.
  await memberPage.getByRole("button", { name: "Listen on my own" }).click();
  await expect(listeners(hostPage).locator("[data-listener]").filter({ hasText: "listener.eth" })).toContainText("on their own");
  await memberPage.getByRole("button", { name: "Follow host" }).click();
  await expect(listeners(hostPage).locator("[data-listener]").filter({ hasText: "listener.eth" })).not.toContainText("on their own");

  // The pages as they are now, for people to look at; no axe violations.
  await hostPage.getByRole("button", { name: "Done" }).click();
  await memberPage.getByRole("button", { name: "Done" }).click();
  await checkPage(hostPage, "listen-host");
  await checkPage(memberPage, "listen-follower");

  // The session's comment is an ordinary comment on the post: in its list and on its timeline.
  await memberPage.goto(`/r/${room.slug}/p/${toneId}`);
  await expect(memberPage.getByRole("list", { name: "Comments", exact: true }).getByText("Here comes the swell")).toBeVisible();
  const at = Math.floor(Number(made!.at_seconds));
  const stamp = `${Math.floor(at / 60)}:${String(at % 60).padStart(2, "0")}`;
  await expect(
    memberPage.getByRole("group", { name: "Comments on the timeline" }).getByRole("button", { name: new RegExp(`(at|from) ${stamp}`) }),
  ).toBeVisible();

  expect(hostSide.errors).toEqual([]);
  expect(memberSide.errors).toEqual([]);
  await hostSide.context.close();
  await memberSide.context.close();
});

test("people who are not members are told to join to listen together", async ({ browser }) => {
  const { host, outsider, room } = await listeningRoom();
  const hostClient = await signedInClient(host.email, host.password);
  const { error } = await hostClient.rpc("start_listening_session", { room_id: room.id });
  expect(error).toBeNull();
  const side = await signedInPage(browser, outsider);
  await side.page.goto(`/r/${room.slug}`);
  await expect(side.page.getByText("A listening session is on in this room. Join the room to listen together.")).toBeVisible();
  await expect(side.page.getByRole("button", { name: "Start listening together" })).toHaveCount(0);
  await side.page.goto(`/r/${room.slug}/listen`);
  await expect(side.page.getByRole("heading", { name: "Only members can listen together" })).toBeVisible();
  await checkPage(side.page, "listen-not-member");
  expect(side.errors).toEqual([]);
  await side.context.close();
});

test("a session nobody follows ends, and the room stops announcing it", async ({ browser }) => {
  const { host, member, room } = await listeningRoom();
  const hostClient = await signedInClient(host.email, host.password);
  const { data: started, error } = await hostClient.rpc("start_listening_session", { room_id: room.id });
  expect(error).toBeNull();
  const side = await signedInPage(browser, member);
  await side.page.goto(`/r/${room.slug}`);
  await expect(side.page.getByText("Listening together now").first()).toBeVisible();

  // Everyone left over two minutes ago: no heartbeat from the host, no page in the session.
  const ago = new Date(Date.now() - 3 * 60_000).toISOString();
  expect((await service.from("listening_sessions").update({ host_seen_at: ago }).eq("id", started.id)).error).toBeNull();
  expect((await service.from("presence").update({ seen_at: ago }).eq("session_id", started.id)).error).toBeNull();

  await side.page.reload();
  await expect(side.page.getByRole("heading", { name: room.name, level: 1 })).toBeVisible();
  await expect(side.page.getByText("Listening together now")).toHaveCount(0);
  const { data: ended } = await service.from("listening_sessions").select("ended_at, playing").eq("id", started.id).single();
  expect(ended?.ended_at).not.toBeNull();
  expect(ended?.playing).toBe(false);

  // The listening page offers a new session rather than joining the old one.
  await side.page.goto(`/r/${room.slug}/listen`);
  await expect(side.page.getByRole("heading", { name: "Nobody is listening together right now" })).toBeVisible();
  expect(side.errors).toEqual([]);
  await side.context.close();
});

test("a gated room's listening page names its token: by name and symbol on its chain, and where to find it", async ({ browser }) => {
  const owner = await createConfirmedUser("gated-listen-owner");
  const visitor = await createConfirmedUser("gated-listen-visitor");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const slug = `gated-listen-${Date.now().toString(36)}`;
  const gate = { chain_id: 31337, contract_address: contracts.erc721.toLowerCase(), standard: "erc721", token_id: null, min_balance: "1" };
  const { error } = await ownerClient.rpc("create_room", { slug, name: "Backstage listening", description: "", gate });
  expect(error).toBeNull();

  const side = await signedInPage(browser, visitor);
  await side.page.goto(`/r/${slug}/listen`);
  await expect(side.page.getByRole("heading", { name: "Only members can listen together" })).toBeVisible();
  const who = side.page.getByRole("region", { name: "Who may join" });
  await expect(who).toContainText("Holders of at least 1 CUEPASS on Local chain");
  await expect(who).toContainText("Cuepoint Backstage Pass (CUEPASS)");
  await expect(who).toContainText("Local chain has no public explorer — ask the room's owner how to get a pass.");
  // The contract is a quiet second line, never the sentence itself.
  await expect(who.locator("p").first()).not.toContainText("0x");
  await checkPage(side.page, "listen-gated-who-may-join");

  // The room page says the same, where a visitor decides to join.
  await side.page.goto(`/r/${slug}`);
  const requirement = side.page.getByRole("main").locator("[data-gate-requirement]").first();
  await expect(requirement).toContainText("Holders of at least 1 CUEPASS on Local chain");
  await expect(requirement).toContainText("Cuepoint Backstage Pass (CUEPASS)");
  await checkPage(side.page, "room-gated-who-may-join");
  expect(side.errors).toEqual([]);
  await side.context.close();
});
