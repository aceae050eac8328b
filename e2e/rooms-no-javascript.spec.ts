// Without JavaScript the open-room path still works: the create form and Join/Leave POST to their
// Server Actions, and the directory's search is a plain GET form.
import { expect, test } from "@playwright/test";
import { passwordForm, watchConsole } from "./support/pages";
import { createConfirmedUser } from "./support/users";

test.use({ javaScriptEnabled: false });

async function signIn(page: import("@playwright/test").Page, email: string, password: string, next: string) {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  const form = passwordForm(page);
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("without JavaScript: create an open room (address from the name), a bad name is explained and what was typed stays; find it by search; another account joins and leaves", async ({
  page,
  browser,
}) => {
  const errors = await watchConsole(page);
  const owner = await createConfirmedUser("nojs-room-owner");
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const name = `Quiet Corner ${id}`;

  await signIn(page, owner.email, owner.password, "/rooms/new");
  await expect(page).toHaveURL(/\/rooms\/new$/);
  await page.getByLabel("Description", { exact: true }).fill("Ambient and drone.");
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page.locator("#name-error")).toHaveText("Give the room a name");
  await expect(page.getByLabel("Description", { exact: true })).toHaveValue("Ambient and drone.");

  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create room" }).click();
  await expect(page).toHaveURL(new RegExp(`/r/quiet-corner-${id}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search rooms, posts and comments" }).fill(`corner ${id}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=corner/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/r/quiet-corner-${id}$`));

  const context = await browser.newContext({ javaScriptEnabled: false });
  const guest = await context.newPage();
  const guestErrors = await watchConsole(guest);
  const visitor = await createConfirmedUser("nojs-room-guest");
  await signIn(guest, visitor.email, visitor.password, `/r/quiet-corner-${id}`);
  await expect(guest).toHaveURL(new RegExp(`/r/quiet-corner-${id}$`));
  await guest.getByRole("button", { name: "Join this room" }).click();
  await expect(guest.getByText("You're a member of this room.")).toBeVisible();
  await expect(guest.getByText("2 members", { exact: true })).toBeVisible();
  await guest.getByRole("button", { name: "Leave room" }).click();
  await expect(guest.getByRole("button", { name: "Join this room" })).toBeVisible();
  await expect(guest.getByText("1 member", { exact: true })).toBeVisible();
  expect(guestErrors).toEqual([]);
  await context.close();
  expect(errors).toEqual([]);
});
