import { expect, test } from "@playwright/test";
import { checkPage, expectSignedOut, watchConsole } from "./support/pages";

test("the home page says what Cuepoint is, with no console errors", async ({ page }) => {
  const errors = await watchConsole(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Cuepoint" })).toBeVisible();
  await expect(page).toHaveTitle("Cuepoint");
  await expectSignedOut(page);
  await checkPage(page, "home");
  expect(errors).toEqual([]);
});

test("an unknown profile is a readable 404 page", async ({ page }) => {
  // Chromium logs the page's own 404 status as a console error; nothing else may appear.
  const errors = await watchConsole(page, { expectedFailures: [/\/u\/nobody_here_123$/] });
  const response = await page.goto("/u/nobody_here_123");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await checkPage(page, "not-found");
  expect(errors).toEqual([]);
});

test("the header's search finds rooms from any page; on a phone it leads to the directory's search", async ({ page }) => {
  const errors = await watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/login");
  const search = page.getByRole("banner").getByRole("searchbox", { name: "Search rooms" });
  await search.fill("field recordings");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/\?q=field\+recordings#rooms$/);
  await expect(page.getByText("Rooms whose name contains “field recordings”.")).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search rooms, posts and comments" })).toHaveValue("field recordings");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(search).toBeHidden();
  await page.getByRole("banner").getByRole("link", { name: "Search rooms" }).click();
  await expect(page).toHaveURL(/\/#room-search$/);
  await expect(page.getByRole("searchbox", { name: "Search rooms, posts and comments" })).toBeInViewport();
  expect(errors).toEqual([]);
});
