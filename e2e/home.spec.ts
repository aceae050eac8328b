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
