import { expect, test } from "@playwright/test";
import { contracts } from "../chain/deployment";
import { checkPage, expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { signedInClient } from "./support/post-rooms";
import { addMember, admin, createPublicRoom } from "./support/rooms";
import { createConfirmedUser } from "./support/users";

test("a person switches reactions off and mutes a room and a thread; after reloading all three are kept, and the account page lists and unmutes them", async ({
  page,
  browser,
}) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("ns-owner");
  const person = await createConfirmedUser("ns-person");
  const room = await createPublicRoom(owner.id, "ns-room", "Slow Sundays");
  await addMember(room.id, person.id);
  const { data: post, error } = await admin
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: owner.id,
      title: "Side B, all of it",
      media_kind: "embed",
      media_url: "https://vimeo.com/76979871",
    })
    .select("id")
    .single();
  expect(error).toBeNull();
  const postPath = `/r/${room.slug}/p/${(post as { id: string }).id}`;

  await signInWithPassword(page, person.email, person.password);
  await expectSignedIn(page);
  await page.goto("/account");
  const section = page.getByRole("form", { name: "Notifications" });
  await expect(section.getByRole("switch", { name: "Reactions in Cuepoint" })).toBeChecked();
  await expect(section.getByRole("switch", { name: "Reactions by email" })).not.toBeChecked();
  await expect(section.getByRole("switch", { name: /Hold back notifications from people you don.t share a room with/ })).toBeChecked();
  await expect(page.getByText("You haven't muted any room or thread.")).toBeVisible();
  await checkPage(page, "account-notifications");

  await section.getByRole("switch", { name: "Reactions in Cuepoint" }).uncheck();
  await section.getByRole("switch", { name: "Mentions by email" }).check();
  await section.getByRole("button", { name: "Save notification settings" }).click();
  await expect(section.getByRole("status")).toHaveText("Notification settings saved.");

  // The room: a quiet control in its header, its state shown and kept.
  await page.goto(`/r/${room.slug}`);
  await page.getByRole("button", { name: "Mute notifications from this room" }).click();
  await expect(page.getByRole("button", { name: "Unmute notifications from this room" })).toBeVisible();
  await expect(page.getByTestId("mute-room")).toContainText("Muted");
  await page.reload();
  await expect(page.getByRole("button", { name: "Unmute notifications from this room" })).toBeVisible();
  await checkPage(page, "room-muted");

  // The post: "Mute this thread".
  await page.goto(postPath);
  await page.getByRole("button", { name: "Mute this thread" }).click();
  await expect(page.getByRole("button", { name: "Unmute this thread" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Unmute this thread" })).toBeVisible();
  await checkPage(page, "post-thread-muted");

  await page.goto("/account");
  await page.reload();
  await expect(section.getByRole("switch", { name: "Reactions in Cuepoint" })).not.toBeChecked();
  await expect(section.getByRole("switch", { name: "Replies in Cuepoint" })).toBeChecked();
  await expect(section.getByRole("switch", { name: "Mentions by email" })).toBeChecked();
  const muted = page.getByRole("list", { name: "Muted rooms and threads" });
  await expect(muted.getByRole("link", { name: "Slow Sundays" })).toHaveAttribute("href", `/r/${room.slug}`);
  await expect(muted.getByRole("link", { name: "Side B, all of it" })).toHaveAttribute("href", postPath);
  await checkPage(page, "account-notifications-muted");

  await muted.getByRole("button", { name: "Unmute the room Slow Sundays" }).click();
  await expect(muted.getByRole("link", { name: "Slow Sundays" })).toHaveCount(0);
  await page.reload();
  await expect(muted.getByRole("link", { name: "Slow Sundays" })).toHaveCount(0);
  await expect(muted.getByRole("link", { name: "Side B, all of it" })).toBeVisible();
  await page.goto(`/r/${room.slug}`);
  await expect(page.getByRole("button", { name: "Mute notifications from this room" })).toBeVisible();

  // Signed out, no mute control is offered.
  const visitor = await browser.newPage();
  await visitor.goto(`/r/${room.slug}`);
  await expect(visitor.getByRole("heading", { name: "Slow Sundays" })).toBeVisible();
  await expect(visitor.getByTestId("mute-room")).toHaveCount(0);
  await visitor.goto(postPath);
  await expect(visitor.getByTestId("mute-thread")).toHaveCount(0);
  await visitor.close();

  expect(errors).toEqual([]);
});

test("a gated room the person cannot read offers no mute control", async ({ page }) => {
  const errors = await watchConsole(page);
  const [owner, person] = await Promise.all([createConfirmedUser("ns-gate-owner"), createConfirmedUser("ns-gate-person")]);
  const ownerClient = await signedInClient(owner.email, owner.password);
  const slug = `ns-gated-${Date.now().toString(36)}`;
  const gate = { chain_id: 31337, contract_address: contracts.erc721.toLowerCase(), standard: "erc721", token_id: null, min_balance: "1" };
  const { error } = await ownerClient.rpc("create_room", { slug, name: "Holders only", description: "", gate });
  expect(error).toBeNull();

  await signInWithPassword(page, person.email, person.password);
  await expectSignedIn(page);
  await page.goto(`/r/${slug}`);
  await expect(page.getByRole("heading", { name: "Holders only" })).toBeVisible();
  await expect(page.getByTestId("room-membership")).toBeVisible();
  await expect(page.getByTestId("mute-room")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the settings form posts: what was chosen is saved, shown again, and kept after a reload", async ({ page }) => {
    const person = await createConfirmedUser("ns-nojs");
    await signInWithPassword(page, person.email, person.password, "/login?next=/account");
    await expect(page).toHaveURL(/\/account$/);
    const section = page.getByRole("form", { name: "Notifications" });
    await section.getByRole("switch", { name: "Moderation in Cuepoint" }).uncheck();
    await section.getByRole("switch", { name: "Replies by email" }).check();
    await section.getByRole("switch", { name: /Hold back notifications/ }).uncheck();
    await section.getByRole("button", { name: "Save notification settings" }).click();
    await expect(section.getByRole("status")).toHaveText("Notification settings saved.");
    for (const reloaded of [false, true]) {
      if (reloaded) await page.goto("/account");
      await expect(section.getByRole("switch", { name: "Moderation in Cuepoint" })).not.toBeChecked();
      await expect(section.getByRole("switch", { name: "Replies in Cuepoint" })).toBeChecked();
      await expect(section.getByRole("switch", { name: "Replies by email" })).toBeChecked();
      await expect(section.getByRole("switch", { name: /Hold back notifications/ })).not.toBeChecked();
    }
  });
});
