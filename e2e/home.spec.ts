import { expect, test } from "@playwright/test";

const widths = [390, 1280];

test("the home page says what Cuepoint is, with no console errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Cuepoint" })).toBeVisible();
    await expect(page).toHaveTitle("Cuepoint");
    await page.screenshot({ path: `e2e/screenshots/home-${width}.png`, fullPage: true });
  }
  expect(errors).toEqual([]);
});
