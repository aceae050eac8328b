import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { checkPage, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { addMember } from "./support/rooms";
import { createConfirmedUser, profileOf } from "./support/users";

// A profile shows what the person made: their public rooms, and their posts and comments in public
// rooms, newest first, each leading to its place. Ada posts and comments in an open room and comments
// in her gated room; Bo (signed in) and a signed-out visitor open her profile: the open room's items
// are there and land where they should, "Show more" adds older ones, and the gated room's words are
// nowhere in the page.

const items = (page: Page) => page.getByRole("list", { name: "Posts and comments" }).getByTestId("profile-activity-item");

async function expectNothingGated(page: Page, secret: string, gatedName: string) {
  const html = await page.content();
  expect(html).not.toContain(secret);
  expect(html).not.toContain(gatedName);
}

test("a profile lists the person's open rooms and what they made there — never a gated room's", async ({ page, browser }) => {
  const errors = await watchConsole(page);
  const [ada, bo] = await Promise.all([createConfirmedUser("profile-ada"), createConfirmedUser("profile-bo")]);
  const { username } = await profileOf(ada.id);
  const [adaClient, boClient] = await Promise.all([signedInClient(ada.email, ada.password), signedInClient(bo.email, bo.password)]);

  const open = await createRoomAs(boClient, "profile-open");
  await addMember(open.id, ada.id, "moderator");
  const gated = await createRoomAs(adaClient, "profile-gated", true);
  const secret = `members-only-${randomBytes(4).toString("hex")}`;

  // Older things Ada said, days ago: enough that the list has a second page.
  const { data: olderPost, error: olderError } = await service
    .from("posts")
    .insert({
      room_id: open.id,
      author_id: ada.id,
      title: "An older set",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 240,
      created_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    })
    .select("id")
    .single();
  expect(olderError).toBeNull();
  const older = Array.from({ length: 22 }, (_, i) => ({
    post_id: (olderPost as { id: string }).id,
    author_id: ada.id,
    at_seconds: 10 + i,
    body: `older thought ${i + 1}`,
    created_at: new Date(Date.now() - (9 * 86_400_000 - i * 60_000)).toISOString(),
  }));
  expect((await service.from("moments").insert(older)).error).toBeNull();

  // Today: Ada posts in the open room and comments on it at 1:42; in her gated room she says a secret.
  const posted = await adaClient
    .from("posts")
    .insert({
      room_id: open.id,
      author_id: ada.id,
      title: "Filter sweep",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 240,
    })
    .select("id")
    .single();
  expect(posted.error).toBeNull();
  const postId = (posted.data as { id: string }).id;
  const commented = await adaClient
    .from("moments")
    .insert({ post_id: postId, author_id: ada.id, at_seconds: 102, body: "the filter opens here" })
    .select("id")
    .single();
  expect(commented.error).toBeNull();
  const commentId = (commented.data as { id: string }).id;
  const gatedPost = await adaClient
    .from("posts")
    .insert({
      room_id: gated.id,
      author_id: ada.id,
      title: `Gated ${secret}`,
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
      duration_seconds: 240,
    })
    .select("id")
    .single();
  expect(gatedPost.error).toBeNull();
  const gatedComment = await adaClient
    .from("moments")
    .insert({ post_id: (gatedPost.data as { id: string }).id, author_id: ada.id, at_seconds: 5, body: `psst ${secret}` });
  expect(gatedComment.error).toBeNull();

  // Bo opens Ada's profile.
  await signInWithPassword(page, bo.email, bo.password);
  await page.waitForURL("/");
  await page.goto(`/u/${username}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const rooms = page.getByRole("list", { name: "Rooms" }).getByTestId("profile-room");
  await expect(rooms).toHaveCount(1);
  await expect(rooms.first()).toContainText(open.name);
  await expect(rooms.first()).toContainText("2 members");
  await expect(rooms.first()).toContainText("Moderator");

  await expect(items(page)).toHaveCount(20);
  await expect(items(page).nth(0)).toContainText("Commented at 1:42 on Filter sweep");
  await expect(items(page).nth(0)).toContainText(`in ${open.name} · just now`);
  await expect(items(page).nth(1)).toContainText("Posted · 1 comment");
  await expect(items(page).nth(1)).toContainText("4:00");
  await expect(items(page).nth(1).getByRole("link", { name: "Filter sweep" })).toHaveAttribute("href", `/r/${open.slug}/p/${postId}`);
  await expectNothingGated(page, secret, gated.name);

  await checkPage(page, "profile-activity");

  // "Show more" adds the older ones below; what was shown stays.
  await page.getByRole("link", { name: "Show more" }).click();
  await expect(items(page)).toHaveCount(2 + 22 + 1);
  await expect(items(page).nth(0)).toContainText("the filter opens here");
  await expect(items(page).last()).toContainText("An older set");
  await expect(items(page).last()).toContainText(/ · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(page.getByRole("link", { name: "Show more" })).toHaveCount(0);
  await expect(page).toHaveURL(`/u/${username}`);
  await expectNothingGated(page, secret, gated.name);

  // The comment leads to its post, at its time, with the comment picked out.
  await page.getByRole("link", { name: "the filter opens here" }).click();
  await page.waitForURL(`/r/${open.slug}/p/${postId}?t=102&comment=${commentId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Filter sweep" })).toBeVisible();

  // A signed-out visitor sees the same, and the post link lands on the post.
  const visitor = await browser.newPage();
  await visitor.goto(`/u/${username}`);
  await expect(items(visitor)).toHaveCount(20);
  await expect(visitor.getByRole("list", { name: "Rooms" }).getByTestId("profile-room")).toHaveCount(1);
  await expectNothingGated(visitor, secret, gated.name);
  const html = await (await visitor.request.get(`/u/${username}`)).text();
  expect(html).toContain("the filter opens here");
  expect(html).not.toContain(secret);
  await visitor.getByRole("link", { name: "the filter opens here" }).click();
  await visitor.waitForURL(`/r/${open.slug}/p/${postId}?t=102&comment=${commentId}`);
  await visitor.goBack();
  await visitor.getByRole("link", { name: "Filter sweep" }).click();
  await visitor.waitForURL(`/r/${open.slug}/p/${postId}`);
  await visitor.close();

  // Without JavaScript, "Show more" leads to the next page of the profile, which leads back.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`/u/${username}`);
  await expect(items(plain)).toHaveCount(20);
  await plain.getByRole("link", { name: "Show more" }).click();
  await plain.waitForURL(/\?before=/);
  await expect(items(plain)).toHaveCount(5);
  await expect(items(plain).last()).toContainText("An older set");
  await expectNothingGated(plain, secret, gated.name);
  await plain.getByRole("link", { name: "Newest posts and comments" }).click();
  await plain.waitForURL(`/u/${username}`);
  await expect(items(plain).first()).toContainText("the filter opens here");
  await noScript.close();

  expect(errors).toEqual([]);
});

test("a profile with nothing yet says so, and one's own suggests where to start", async ({ page }) => {
  const errors = await watchConsole(page);
  const [cy, di] = await Promise.all([createConfirmedUser("profile-cy"), createConfirmedUser("profile-di")]);
  const cyName = (await profileOf(cy.id)).username;

  await page.goto(`/u/${cyName}`);
  await expect(page.getByText("Not in any open rooms yet.")).toBeVisible();
  await expect(page.getByText("No posts or comments yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Find a room" })).toHaveCount(0);

  await signInWithPassword(page, di.email, di.password);
  await page.waitForURL("/");
  await page.goto(`/u/${(await profileOf(di.id)).username}`);
  await expect(page.getByText("You're not in any open rooms yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Find a room to join" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Find a room", exact: true })).toHaveAttribute("href", "/");
  await checkPage(page, "profile-empty-own");
  expect(errors).toEqual([]);
});
