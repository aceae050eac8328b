import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { wavFile } from "../tests/helpers/media-files";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember, admin } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

// Two people in one room, each in their own browser: what one does reaches the other without a
// reload, through the room's private channel — posts appearing, changing and going; who is here and
// what each plays; a 10-second network drop that loses nothing and shows nothing twice; and a member
// whose membership ends, whose page leaves the channel at once and says why.

test.describe.configure({ timeout: 180_000 });

const fileHost = "https://media.cuepoint-files.com";

type Person = Awaited<ReturnType<typeof createConfirmedUser>>;
type Seat = { context: BrowserContext; page: Page; errors: string[] };

/** A person in their own browser context (own cookies, own socket), signed in, on `path`. */
async function seat(browser: Browser, person: Person, path: string, { goesOffline = false } = {}): Promise<Seat> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Offline on purpose, a session refresh that falls due then fails (and is tried again once back).
  const errors = await watchConsole(page, { expectedFailures: goesOffline ? [/\/auth\/v1\/token\?grant_type=refresh_token$/] : [] });
  // A file on the web, answered here: the internet is not reachable from these machines.
  await page.route(`${fileHost}/**`, (route) => route.fulfill({ status: 200, contentType: "audio/wav", body: Buffer.from(wavFile(30)) }));
  await signInWithPassword(page, person.email, person.password);
  await page.waitForURL("/");
  await page.goto(path);
  // Marks this document: still there at the end means nothing was reloaded.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  return { context, page, errors };
}

const hereNow = (page: Page) => page.getByRole("region", { name: "Here now" });
const feed = (page: Page) => page.getByRole("region", { name: "Posts" });
const cards = (page: Page, title: string) =>
  feed(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: title, exact: true }) });
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

async function expectLive(page: Page) {
  await expect(hereNow(page).getByRole("status")).toHaveText("Live", { timeout: 20_000 });
}

async function play(page: Page) {
  const media = page.locator("main audio, main video").first();
  await expect(media).toBeAttached();
  await media.evaluate((element: HTMLMediaElement) => {
    element.muted = true;
    return element.play();
  });
}

test("two people in a room: posts appear, change and go live, both are here now with what they play, and a 10 s drop loses nothing", async ({
  browser,
}) => {
  const [ada, bo] = await Promise.all([createConfirmedUser("live-ada"), createConfirmedUser("live-bo")]);
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "live-room");
  await addMember(room.id, bo.id);
  const [{ data: adaProfile }, { data: boProfile }] = await Promise.all([
    service.from("profiles").select("display_name").eq("id", ada.id).single(),
    service.from("profiles").select("display_name").eq("id", bo.id).single(),
  ]);
  const adaName = adaProfile!.display_name as string;
  const boName = boProfile!.display_name as string;

  const a = await seat(browser, ada, `/r/${room.slug}`);
  const b = await seat(browser, bo, `/r/${room.slug}`, { goesOffline: true });
  await Promise.all([expectLive(a.page), expectLive(b.page)]);

  // Here now: each sees the other (and themselves, marked).
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).toBeVisible();
  await expect(hereNow(b.page).getByRole("listitem").filter({ hasText: adaName })).toBeVisible();
  await expect(
    hereNow(b.page)
      .getByRole("listitem")
      .filter({ hasText: `${boName} (you)` }),
  ).toBeVisible();

  // Ada posts through the room's form; Bo's feed shows it, with Ada as its author, once.
  await a.page.getByTestId("add-post").locator("summary").click();
  const form = a.page.getByRole("form", { name: "Share a link" });
  await form.getByLabel("Link").fill(`${fileHost}/first.wav`);
  await form.getByLabel("Title").fill("First light");
  await form.getByRole("button", { name: "Post link" }).click();
  await expect(form.getByRole("status")).toContainText("Posted.");
  await expect(cards(b.page, "First light")).toHaveCount(1);
  await expect(cards(b.page, "First light")).toContainText(adaName);
  await expect(cards(a.page, "First light")).toHaveCount(1);
  const { data: first } = await service.from("posts").select("id").eq("room_id", room.id).eq("title", "First light").single();
  const firstId = (first as { id: string }).id;

  // Edited and deleted elsewhere (Ada's own client): Bo's feed follows.
  await adaClient
    .from("posts")
    .insert({ room_id: room.id, author_id: ada.id, title: "Second wind", media_kind: "embed", media_url: `${fileHost}/second.wav` });
  await expect(cards(b.page, "Second wind")).toHaveCount(1);
  await expect(feed(b.page).getByRole("listitem").first()).toContainText("Second wind");
  const { error: editError } = await adaClient.from("posts").update({ title: "First light, renamed" }).eq("id", firstId);
  expect(editError).toBeNull();
  await expect(cards(b.page, "First light, renamed")).toHaveCount(1);
  await expect(cards(b.page, "First light")).toHaveCount(0);
  await checkPage(b.page, "live-room-feed");

  const { data: second } = await service.from("posts").select("id").eq("room_id", room.id).eq("title", "Second wind").single();
  await adaClient
    .from("posts")
    .delete()
    .eq("id", (second as { id: string }).id);
  await expect(cards(b.page, "Second wind")).toHaveCount(0);
  await expect(cards(a.page, "Second wind")).toHaveCount(0);

  // Bo's network drops for 10 s while Ada posts twice: both appear exactly once when Bo is back.
  await b.context.setOffline(true);
  await expect(hereNow(b.page).getByRole("status")).toHaveText("Reconnecting…");
  for (const title of ["While you were away", "And one more"]) {
    const { error } = await adaClient
      .from("posts")
      .insert({ room_id: room.id, author_id: ada.id, title, media_kind: "embed", media_url: `${fileHost}/away.wav` });
    expect(error).toBeNull();
  }
  await b.page.waitForTimeout(10_000);
  await b.context.setOffline(false);
  await expectLive(b.page);
  await expect(cards(b.page, "While you were away")).toHaveCount(1);
  await expect(cards(b.page, "And one more")).toHaveCount(1);
  // Whatever else was still on its way (the socket's buffer, the catch-up by REST) has landed by now: still once each.
  await b.page.waitForTimeout(2_000);
  await expect(cards(b.page, "While you were away")).toHaveCount(1);
  await expect(cards(b.page, "And one more")).toHaveCount(1);
  await expect(feed(b.page).getByRole("listitem")).toHaveCount(3);
  await expect(feed(b.page).getByRole("listitem").first()).toContainText("And one more");

  // What each plays: Ada plays her post on its page; Bo, in the room, sees it, then plays it too.
  await a.page.goto(`/r/${room.slug}/p/${firstId}`);
  await expectLive(a.page);
  await play(a.page);
  await expect(hereNow(b.page).getByRole("listitem").filter({ hasText: adaName })).toContainText("Playing First light, renamed");
  await b.page.getByRole("link", { name: "First light, renamed" }).first().click();
  await expect(b.page.getByRole("heading", { level: 1 })).toHaveText("First light, renamed");
  await play(b.page);
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).toContainText("Playing First light, renamed");
  await expect(hereNow(b.page).getByRole("listitem").filter({ hasText: adaName })).toContainText("Playing First light, renamed");
  await b.page
    .locator("main audio, main video")
    .first()
    .evaluate((element: HTMLMediaElement) => element.pause());
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).not.toContainText("Playing");
  await checkPage(a.page, "live-post-here-now");

  // Ada removes Bo from her public room: Bo's page says so at once, Bo leaves "here now", and reads along.
  const { error: removeError } = await adaClient.from("memberships").delete().eq("room_id", room.id).eq("user_id", bo.id);
  expect(removeError).toBeNull();
  await expect(b.page.getByRole("main").getByRole("alert")).toContainText("You're no longer a member of this room — ");
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).toHaveCount(0);
  await expectLive(b.page);
  await expect(hereNow(b.page).getByRole("listitem").filter({ hasText: boName })).toHaveCount(0);

  expect(await sameDocument(a.page)).toBe(false); // Ada navigated to the post on purpose
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await Promise.all([a.context.close(), b.context.close()]);
});

const comments = (page: Page) => page.getByRole("list", { name: "Comments" });
const comment = (page: Page, text: string) => comments(page).getByRole("listitem").filter({ hasText: text });
const markers = (page: Page) => page.getByRole("group", { name: "Comments on the timeline" });
const mediaOf = (page: Page) => page.locator("main audio, main video").first();
const timeOf = (page: Page) => mediaOf(page).evaluate((element: HTMLMediaElement) => element.currentTime);

/** "Comment at …" the time the playing player is at. */
async function commentNow(page: Page, body: string) {
  const composer = page.getByRole("form", { name: "Add a comment" });
  await composer.getByLabel("Your comment").fill(body);
  await composer.getByRole("button", { name: /^Comment at / }).click();
  await expect(composer.getByRole("status")).toHaveText("Posted.");
}

test("moments live between two people on a playing file: a comment and its marker appear, seek, go; a 10 s drop while two more arrive shows each once", async ({
  browser,
}) => {
  const [ada, bo] = await Promise.all([createConfirmedUser("moment-ada"), createConfirmedUser("moment-bo")]);
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "live-moments");
  await addMember(room.id, bo.id);
  const path = `${room.id}/${ada.id}/${randomUUID()}.wav`;
  const stored = await adaClient.storage.from("media").upload(path, Buffer.from(wavFile(40)), { contentType: "audio/wav" });
  expect(stored.error).toBeNull();
  const { data: post, error } = await adaClient
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: ada.id,
      title: "Forty seconds of tone",
      media_kind: "upload",
      storage_path: path,
      duration_seconds: 40,
    })
    .select("id")
    .single();
  expect(error).toBeNull();
  const postId = (post as { id: string }).id;
  const [{ data: adaProfile }, { data: boProfile }] = await Promise.all([
    service.from("profiles").select("display_name").eq("id", ada.id).single(),
    service.from("profiles").select("display_name").eq("id", bo.id).single(),
  ]);
  const adaName = (adaProfile as { display_name: string }).display_name;
  const boName = (boProfile as { display_name: string }).display_name;

  const a = await seat(browser, ada, `/r/${room.slug}/p/${postId}`);
  const b = await seat(browser, bo, `/r/${room.slug}/p/${postId}`, { goesOffline: true });
  await Promise.all([expectLive(a.page), expectLive(b.page)]);

  // Ada plays the file and comments at the time it is at; Bo sees the comment and its marker, no reload.
  await play(a.page);
  await expect.poll(() => timeOf(a.page), { timeout: 10_000 }).toBeGreaterThan(0);
  await mediaOf(a.page).evaluate((element: HTMLMediaElement) => (element.currentTime = 12.2));
  await commentNow(a.page, "That swell!");
  const { data: saved } = await service.from("moments").select("id, at_seconds").eq("post_id", postId).eq("body", "That swell!").single();
  const at = Number((saved as { at_seconds: number }).at_seconds);
  expect(at).toBeGreaterThanOrEqual(12);
  const label = `Comment at 0:${String(Math.floor(at)).padStart(2, "0")} by ${adaName}`;
  await expect(comment(b.page, "That swell!")).toHaveCount(1);
  await expect(markers(b.page).getByRole("button", { name: label })).toBeVisible();

  // Both here now, each with what they play.
  await expect(hereNow(b.page).getByRole("listitem").filter({ hasText: adaName })).toContainText("Playing Forty seconds of tone");
  await markers(b.page).getByRole("button", { name: label }).click();
  await expect.poll(() => timeOf(b.page)).toBeGreaterThanOrEqual(at - 0.01);
  await expect(comment(b.page, "That swell!")).toHaveAttribute("aria-current", "true");
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).toContainText("Playing Forty seconds of tone");
  await mediaOf(b.page).evaluate((element: HTMLMediaElement) => element.pause());
  await expect(hereNow(a.page).getByRole("listitem").filter({ hasText: boName })).not.toContainText("Playing");

  // Ada deletes it: gone from Bo's list and timeline.
  const mine = comment(a.page, "That swell!");
  await mine.getByRole("button", { name: "Delete" }).click();
  await mine.getByRole("button", { name: "Yes, delete" }).click();
  await expect(comment(b.page, "That swell!")).toHaveCount(0);
  await expect(markers(b.page).getByRole("button", { name: label })).toHaveCount(0);

  // Bo is offline for 10 s while Ada comments twice: each shows once when Bo is back.
  await b.context.setOffline(true);
  await expect(hereNow(b.page).getByRole("status")).toHaveText("Reconnecting…");
  await commentNow(a.page, "First while away");
  await commentNow(a.page, "Second while away");
  await b.page.waitForTimeout(10_000);
  await b.context.setOffline(false);
  await expectLive(b.page);
  await expect(comment(b.page, "First while away")).toHaveCount(1);
  await expect(comment(b.page, "Second while away")).toHaveCount(1);
  await b.page.waitForTimeout(2_000);
  await expect(comment(b.page, "First while away")).toHaveCount(1);
  await expect(comment(b.page, "Second while away")).toHaveCount(1);
  await expect(comments(b.page).getByRole("listitem")).toHaveCount(2);
  await checkPage(b.page, "live-post-moments");

  expect(await sameDocument(b.page)).toBe(true);
  expect(await sameDocument(a.page)).toBe(true);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await Promise.all([a.context.close(), b.context.close()]);
});

test("a member removed from a gated room: the page leaves the channel at once, says why, and stops updating; visitors are refused", async ({
  browser,
}) => {
  const [owner, member, outsider] = await Promise.all([
    createConfirmedUser("gate-owner"),
    createConfirmedUser("gate-member"),
    createConfirmedUser("gate-outsider"),
  ]);
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "gated-live", true);
  // Checked just now (as joining does), so opening the room does not re-check a wallet it does not have.
  const { error: joinError } = await admin
    .from("memberships")
    .insert({ room_id: room.id, user_id: member.id, role: "member", verified_at: new Date().toISOString() });
  expect(joinError).toBeNull();
  const { data: memberProfile } = await service.from("profiles").select("display_name").eq("id", member.id).single();
  const memberName = (memberProfile as { display_name: string }).display_name;

  const o = await seat(browser, owner, `/r/${room.slug}`);
  const m = await seat(browser, member, `/r/${room.slug}`);
  await Promise.all([expectLive(o.page), expectLive(m.page)]);
  await expect(hereNow(o.page).getByRole("listitem").filter({ hasText: memberName })).toBeVisible();
  await ownerClient
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "Members see this", media_kind: "embed", media_url: `${fileHost}/a.wav` });
  await expect(cards(m.page, "Members see this")).toHaveCount(1);

  // The owner removes the member.
  const { error } = await ownerClient.from("memberships").delete().eq("room_id", room.id).eq("user_id", member.id);
  expect(error).toBeNull();
  await expect(m.page.getByRole("main").getByRole("alert")).toContainText("You're no longer a member of this room — ");
  await expect(hereNow(m.page).getByRole("status")).toHaveText("Not live");
  await expect(hereNow(m.page).getByRole("listitem")).toHaveCount(0);
  await expect(hereNow(o.page).getByRole("listitem").filter({ hasText: memberName })).toHaveCount(0);
  await ownerClient
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "After you left", media_kind: "embed", media_url: `${fileHost}/b.wav` });
  await expect(cards(o.page, "After you left")).toHaveCount(1);
  await m.page.waitForTimeout(1_500);
  await expect(cards(m.page, "After you left")).toHaveCount(0);
  expect(await sameDocument(m.page)).toBe(true);
  await checkPage(m.page, "live-room-removed");

  // A signed-in visitor of the gated room reads nothing and joins nothing: the channel refuses them.
  const v = await seat(browser, outsider, `/r/${room.slug}`);
  await expect(v.page.getByRole("heading", { name: "Posts are for members" })).toBeVisible();
  await expect(hereNow(v.page)).toHaveCount(0);
  const outsiderClient = await signedInClient(outsider.email, outsider.password);
  await outsiderClient.realtime.setAuth();
  const heard: unknown[] = [];
  const channel = outsiderClient
    .channel(`room:${room.id}`, { config: { private: true } })
    .on("broadcast", { event: "posts" }, (message) => heard.push(message));
  const joined = await new Promise<{ status: string; error?: Error }>((resolve) =>
    channel.subscribe((status, err) => resolve({ status, error: err })),
  );
  expect(joined.status).toBe("CHANNEL_ERROR");
  expect(joined.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: room:${room.id}`);
  await ownerClient
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "Not for visitors", media_kind: "embed", media_url: `${fileHost}/c.wav` });
  await expect(cards(o.page, "Not for visitors")).toHaveCount(1);
  await v.page.waitForTimeout(1_000);
  expect(heard).toEqual([]);
  await outsiderClient.removeAllChannels();

  for (const seatOf of [o, m, v]) expect(seatOf.errors).toEqual([]);
  await Promise.all([o.context.close(), m.context.close(), v.context.close()]);
});

test("a room gated while a visitor's page is open: that page hears nothing more; the members' pages follow on", async ({ browser }) => {
  const [owner, member, visitor] = await Promise.all([
    createConfirmedUser("gating-owner"),
    createConfirmedUser("gating-member"),
    createConfirmedUser("gating-visitor"),
  ]);
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "gating-live");
  // A holder of the token the room is about to ask for, checked just now.
  expect(
    (await admin.from("memberships").insert({ room_id: room.id, user_id: member.id, verified_at: new Date().toISOString() })).error,
  ).toBeNull();
  const [o, m, v] = [
    await seat(browser, owner, `/r/${room.slug}`),
    await seat(browser, member, `/r/${room.slug}`),
    await seat(browser, visitor, `/r/${room.slug}`),
  ];
  await Promise.all([expectLive(o.page), expectLive(m.page), expectLive(v.page)]);
  await ownerClient
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "Open to all", media_kind: "embed", media_url: `${fileHost}/a.wav` });
  await Promise.all([o, m, v].map((seated) => expect(cards(seated.page, "Open to all")).toHaveCount(1)));

  // The owner gates the room; the visitor's page is left on the old topic and told nothing it may not read.
  const { error } = await ownerClient.rpc("set_room_gate", {
    room_id: room.id,
    gate: {
      chain_id: 31337,
      contract_address: "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707",
      standard: "erc721",
      token_id: null,
      min_balance: "1",
    },
  });
  expect(error).toBeNull();
  await expect(hereNow(v.page).locator("[data-live-status]")).toHaveText("Not live");
  await expect(
    hereNow(v.page).getByText("Only members can follow this room live — join it to see new posts and comments as they happen."),
  ).toBeVisible();
  // Who is here is no longer the visitor's to see.
  await expect(hereNow(v.page).getByRole("listitem")).toHaveCount(0);
  await Promise.all([expectLive(o.page), expectLive(m.page)]);
  await ownerClient
    .from("posts")
    .insert({ room_id: room.id, author_id: owner.id, title: "Holders only", media_kind: "embed", media_url: `${fileHost}/b.wav` });
  await expect(cards(o.page, "Holders only")).toHaveCount(1);
  await expect(cards(m.page, "Holders only")).toHaveCount(1);
  await v.page.waitForTimeout(1_500);
  await expect(cards(v.page, "Holders only")).toHaveCount(0);
  expect(await sameDocument(v.page)).toBe(true);
  await checkPage(v.page, "live-room-gated-while-open");

  for (const seated of [o, m, v]) expect(seated.errors).toEqual([]);
  await Promise.all([o.context.close(), m.context.close(), v.context.close()]);
});

test("here now shows each person only as themselves: a member's forged presence (another's id, a made-up name and role) shows no one", async ({
  browser,
}) => {
  const [ada, cy, dee] = await Promise.all(["here-ada", "here-cy", "here-dee"].map((name) => createConfirmedUser(name)));
  const adaClient = await signedInClient(ada.email, ada.password);
  const room = await createRoomAs(adaClient, "here-forged");
  await addMember(room.id, cy.id);
  await addMember(room.id, dee.id);
  const names = await Promise.all(
    [ada, cy, dee].map(
      async (person) =>
        ((await service.from("profiles").select("display_name").eq("id", person.id).single()).data as { display_name: string })
          .display_name,
    ),
  );

  const a = await seat(browser, ada, `/r/${room.slug}`);
  await expectLive(a.page);
  const people = hereNow(a.page).getByRole("list", { name: "Members here now" }).getByRole("listitem");
  await expect(people).toHaveCount(1);

  // Cy, with supabase-js and no page, shows a presence as Dee (who is not here) and one as an "Admin" owner under Cy's own id.
  const cyClient = await signedInClient(cy.email, cy.password);
  await cyClient.realtime.setAuth();
  const forged = cyClient.channel(`room:${room.id}`, { config: { private: true, presence: { key: dee.id } } });
  await new Promise<void>((resolve) => forged.subscribe((status) => status === "SUBSCRIBED" && resolve()));
  await forged.track({ user_id: dee.id, username: "dee", display_name: names[2], avatar_path: null, playing: null, at: Date.now() });
  await forged.track({
    user_id: cy.id,
    username: "admin",
    display_name: "Admin",
    role: "owner",
    avatar_path: null,
    playing: { post_id: "x", title: "Free tokens" },
    at: Date.now(),
  });
  // Ada's page reads who is here again (it was prompted), and shows neither.
  await a.page.waitForTimeout(3_000);
  await expect(people).toHaveCount(1);
  await expect(hereNow(a.page)).not.toContainText(names[2]);
  await expect(hereNow(a.page)).not.toContainText("Admin");

  // Cy opens the room for real: Cy shows, under Cy's own name.
  const c = await seat(browser, cy, `/r/${room.slug}`);
  await expectLive(c.page);
  await expect(people.filter({ hasText: names[1] })).toBeVisible();
  await expect(people).toHaveCount(2);
  await expect(hereNow(a.page)).not.toContainText("Admin");
  await checkPage(a.page, "live-room-here-now-forged");

  await cyClient.removeAllChannels();
  for (const seated of [a, c]) expect(seated.errors).toEqual([]);
  await Promise.all([a.context.close(), c.context.close()]);
});
