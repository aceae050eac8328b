import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { checkPage, watchConsole } from "./support/pages";
import { createRoomAs, service, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// The directory's search also finds posts and comments by their words: someone signed out types a
// word from a comment (without its accent), sees it under "Posts and comments" with the word
// emphasised, opens it and lands on the post at that comment. A gated room's comment is not found.

test("a word from a comment finds it on the home page, and the result opens the post at the comment", async ({ page }) => {
  const errors = await watchConsole(page);
  const word = `zorblat${randomUUID().slice(0, 6)}`;
  const owner = await createConfirmedUser("search-owner");
  const client = await signedInClient(owner.email, owner.password);
  const open = await createRoomAs(client, "search-open");
  const gated = await createRoomAs(client, "search-gated", true);
  const post = async (roomId: string, title: string) => {
    const { data, error } = await client
      .from("posts")
      .insert({
        room_id: roomId,
        author_id: owner.id,
        title,
        media_kind: "embed",
        media_url: "https://vimeo.com/76979871",
        duration_seconds: 240,
      })
      .select("id")
      .single<{ id: string }>();
    if (error || !data) throw error;
    return data.id;
  };
  const openPost = await post(open.id, "Late night café set");
  const gatedPost = await post(gated.id, "Members only set");
  const { data: comment, error } = await service
    .from("moments")
    .insert({ post_id: openPost, author_id: owner.id, at_seconds: 102, body: `The ${word}é swell right here <b>not bold</b>` })
    .select("id")
    .single<{ id: string }>();
  if (error || !comment) throw error;
  expect(
    (await service.from("moments").insert({ post_id: gatedPost, author_id: owner.id, at_seconds: 5, body: `A ${word}e secret` })).error,
  ).toBeNull();

  await page.goto("/");
  const search = page.getByRole("main").getByRole("searchbox", { name: "Search rooms, posts and comments" });
  await search.fill(word);
  await search.press("Enter");
  await page.waitForURL(`/?q=${word}`);

  const found = page.getByRole("region", { name: "Posts and comments" });
  await expect(found.getByRole("listitem")).toHaveCount(1);
  const result = found.getByRole("link", { name: new RegExp(`^The ${word}é swell right here`) });
  await expect(result).toBeVisible();
  // Text that looks like markup stays text (the excerpt leaves out what the parser reads as a tag).
  await expect(result.locator("b")).toHaveCount(0);
  await expect(result.locator("mark")).toHaveText(`${word}é`);
  await expect(found.getByRole("listitem")).toContainText("Comment at 1:42 on Late night café set");
  await expect(found.getByRole("listitem")).toContainText(`in ${open.name}`);
  await expect(found).not.toContainText("secret");
  await checkPage(page, "search-results");

  // Nothing found: said plainly.
  await page.goto(`/?q=${word}zz`);
  await expect(page.getByRole("region", { name: "Posts and comments" })).toContainText(`No posts or comments match “${word}zz”.`);

  await page.goto(`/?q=${word}`);
  await page.getByRole("region", { name: "Posts and comments" }).getByRole("link").first().focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`/r/${open.slug}/p/${openPost}?t=102&comment=${comment.id}`);
  expect(new URL(page.url()).searchParams.get("comment")).toBe(comment.id);
  await expect(page.locator(`[data-moment-id="${comment.id}"]`)).toBeFocused();
  expect(errors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the search form finds a post by a word of its title, and the result opens it", async ({ page }) => {
    const word = `vindral${randomUUID().slice(0, 6)}`;
    const owner = await createConfirmedUser("search-nojs");
    const client = await signedInClient(owner.email, owner.password);
    const room = await createRoomAs(client, "search-nojs");
    const { data: post, error } = await client
      .from("posts")
      .insert({
        room_id: room.id,
        author_id: owner.id,
        title: `Über ${word} live`,
        media_kind: "embed",
        media_url: "https://vimeo.com/76979871",
      })
      .select("id")
      .single<{ id: string }>();
    if (error || !post) throw error;

    await page.goto("/");
    await page.getByRole("main").getByRole("searchbox", { name: "Search rooms, posts and comments" }).fill(`uber ${word}`);
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    const found = page.getByRole("region", { name: "Posts and comments" });
    const link = found.getByRole("link", { name: `Über ${word} live` });
    await expect(link.locator("mark")).toHaveText(["Über", word]);
    await link.click();
    await expect(page).toHaveURL(`/r/${room.slug}/p/${post.id}`);
  });
});
