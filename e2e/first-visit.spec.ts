// A first visit, end to end, as one new person lives it: sign up with an email and a password, confirm
// through the emailed link, choose a username (a taken one is refused as it is typed, a free one is
// accepted) and a name, open a suggested room and one of its posts, join right there while the post
// plays — the page, the player and its place in the track stay, and the comment box opens — comment,
// then find the room under "Your rooms" at home, marked live once another person hosts a session in it.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { latestLink } from "./support/inbox";
import { checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient, uploadTone } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser, profileOf, uniqueEmail } from "./support/users";

const yourRoom = (page: Page, name: string) => page.getByTestId("your-room").filter({ hasText: name });
const player = (page: Page) => page.locator("main audio");
const playerState = (page: Page) =>
  player(page).evaluate((element: HTMLMediaElement) => ({
    kept: element.dataset.kept ?? null,
    paused: element.paused,
    at: element.currentTime,
  }));

/**
 * An open room with an uploaded post, which a newcomer is suggested first: suggestions are the open
 * rooms with the most members, so it gets one member more than the busiest open room already holds
 * (whatever other tests left behind). Its owner hosts the session later on. `release` takes those
 * extra members out again, so the next run does not have to outnumber this room too.
 */
async function busiestRoomWithAPost() {
  const owner = await createConfirmedUser("first-visit-owner");
  const ownerClient = await signedInClient(owner.email, owner.password);
  const room = await createRoomAs(ownerClient, "first-visit");
  const title = `Tone for newcomers ${room.slug.slice(-5)}`;
  const postId = await uploadTone(ownerClient, room.id, owner.id, title, 60);
  const { data: busiest, error } = await service
    .from("rooms")
    .select("member_count")
    .eq("visibility", "public")
    .neq("id", room.id)
    .order("member_count", { ascending: false })
    .limit(1);
  expect(error).toBeNull();
  const others = (busiest?.[0] as { member_count: number } | undefined)?.member_count ?? 0;
  const members = await Promise.all(Array.from({ length: others }, (_, i) => createConfirmedUser(`first-visit-member${i}`)));
  for (const member of members) await addMember(room.id, member.id);
  const release = async () => {
    const ids = members.map((member) => member.id);
    if (ids.length) expect((await service.from("memberships").delete().eq("room_id", room.id).in("user_id", ids)).error).toBeNull();
  };
  return { owner, ownerClient, room, title, postId, release };
}

/** The owner, in a browser of their own, starts listening together in the room and stays on the page as its host. */
async function hostASession(browser: Browser, owner: { email: string; password: string }, slug: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await watchConsole(page);
  await signInWithPassword(page, owner.email, owner.password);
  await expectSignedIn(page);
  await page.goto(`/r/${slug}/listen`);
  await page.getByRole("button", { name: "Start listening together" }).click();
  await expect(page.getByRole("region", { name: "You're hosting" })).toBeVisible();
  return { context, page, errors };
}

test("a new person signs up, confirms, chooses a name, joins a suggested room from its post page without leaving it, comments, and finds the room under Your rooms, live while another person hosts", async ({
  page,
  browser,
}) => {
  test.slow();
  const errors = await watchConsole(page);
  const { owner, ownerClient, room, title, postId, release } = await busiestRoomWithAPost();
  const postPath = `/r/${room.slug}/p/${postId}`;

  // Sign up and confirm through the emailed link.
  const email = uniqueEmail("first-visit");
  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first-visit-pass-42");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`We sent a confirmation link to ${email}`)).toBeVisible();
  await page.goto(await latestLink(email, /Confirm your Cuepoint account/));

  // Welcome: a taken username is refused as it is typed, a free one accepted.
  await expect(page).toHaveURL(/\/welcome\?next=%2F$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Cuepoint");
  await expectSignedIn(page);
  const username = page.getByLabel("Username");
  await username.fill((await profileOf(owner.id)).username);
  await expect(page.locator("#username-error")).toHaveText("That username is taken");
  await checkPage(page, "first-visit-welcome");
  const chosen = `new_${Date.now().toString(36)}`;
  await username.fill(chosen);
  await expect(page.getByText(`${chosen} is free.`)).toBeVisible();
  await expect(page.locator("#username-error")).toHaveCount(0);
  await page.getByLabel("Your name").fill("Nova Newcomer");
  await page.getByRole("button", { name: "Save and continue" }).click();

  // Suggested rooms: open this one, then its post.
  const suggested = page.getByRole("region", { name: "You're all set. Rooms to start with" });
  await expect(suggested).toBeVisible();
  await checkPage(page, "first-visit-suggested");
  await suggested.getByRole("link", { name: room.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: room.name })).toBeVisible();
  await page.getByTestId("post-card").filter({ hasText: title }).getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`${postPath}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("form", { name: "Add a comment" })).toHaveCount(0);

  // The post plays (muted, so the browser allows it without a gesture) from 0:20; the element is
  // marked to see that joining keeps it rather than making a new one.
  await expect(player(page)).toBeAttached();
  await player(page).evaluate(async (element: HTMLMediaElement) => {
    element.muted = true;
    element.dataset.kept = "yes";
    element.currentTime = 20;
    await element.play();
  });
  await expect.poll(async () => (await playerState(page)).at).toBeGreaterThan(20.2);

  // Join here: the address, the player and its place in the track stay; the comment box opens.
  await page.getByRole("button", { name: "Join to comment" }).click();
  const composer = page.getByRole("form", { name: "Add a comment" });
  await expect(composer).toBeVisible();
  await expect(composer.getByLabel("Your comment")).toBeFocused();
  expect(new URL(page.url()).pathname).toBe(postPath);
  const after = await playerState(page);
  expect(after).toMatchObject({ kept: "yes", paused: false });
  expect(after.at).toBeGreaterThan(20.2);
  const newcomer = await service.from("profiles").select("id").eq("username", chosen).single();
  expect(newcomer.error).toBeNull();
  const newcomerId = (newcomer.data as { id: string }).id;
  const { data: membership } = await service.from("memberships").select("role").eq("room_id", room.id).eq("user_id", newcomerId).single();
  expect(membership).toEqual({ role: "member" });
  // Now a member, the newcomer is among those here, playing this post: the page's live channel,
  // joined while they were a visitor, is joined again as a member's (who may share their presence).
  const hereNow = page.getByRole("region", { name: "Here now" }).getByRole("list", { name: "Members here now" });
  await expect(hereNow).toContainText("Nova Newcomer (you)");
  await expect(hereNow).toContainText(`Playing ${title}`);

  // A comment at the moment playing, stopped first so the moment holds still.
  await player(page).evaluate((element: HTMLMediaElement) => element.pause());
  await composer.getByLabel("Your comment").fill("Glad I found this room");
  await composer.getByRole("button", { name: /^Comment at \d+:\d\d$/ }).click();
  await expect(composer.getByRole("status")).toHaveText("Posted.");
  await expect(page.getByRole("main").getByText("Glad I found this room")).toBeVisible();
  const { data: stored } = await service.from("moments").select("body, at_seconds").eq("post_id", postId).eq("author_id", newcomerId);
  expect(stored).toHaveLength(1);
  expect(Number((stored![0] as { at_seconds: number }).at_seconds)).toBeGreaterThan(20);
  await checkPage(page, "first-visit-post-joined");

  // Home: the room is among the newcomer's rooms, not live yet.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your rooms" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your rooms" })).toBeVisible();
  await expect(yourRoom(page, room.name)).toBeVisible();
  await expect(yourRoom(page, room.name).getByText(/^Live/)).toHaveCount(0);

  // The owner starts listening together: the newcomer's home shows the room live.
  const host = await hostASession(browser, owner, room.slug);
  await page.reload();
  await expect(yourRoom(page, room.name).getByText(/^Live/)).toBeVisible();
  await expect(yourRoom(page, room.name).getByRole("link", { name: room.name })).toHaveAttribute("href", `/r/${room.slug}/listen`);
  await checkPage(page, "first-visit-home-live");

  const { data: live } = await service.from("listening_sessions").select("id").eq("room_id", room.id).is("ended_at", null);
  for (const session of live ?? []) await ownerClient.rpc("end_listening_session", { session_id: (session as { id: string }).id });
  expect(host.errors).toEqual([]);
  await host.context.close();
  await release();
  expect(errors).toEqual([]);
});
