import { expect, test } from "@playwright/test";
import { expectSignedIn, watchConsole } from "./support/pages";
import { signInWithPassword } from "./support/pages";
import { createConfirmedUser } from "./support/users";

// `npm test` runs the e2e layer against Auth with a short access-token lifetime
// (STACK_AUTH_JWT_EXPIRY, 120 s), so supabase-js must refresh it while the page is open.
const authCookie = async (page: import("@playwright/test").Page) =>
  (await page.context().cookies()).filter((cookie) => /^sb-.*-auth-token/.test(cookie.name)).map((cookie) => cookie.value).join("");

test("an access token that expires is refreshed with no visible effect", async ({ page }) => {
  test.setTimeout(150_000);
  const errors = watchConsole(page);
  const user = await createConfirmedUser("refresh");
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.goto("/account");
  const before = await authCookie(page);
  const url = page.url();
  await expect.poll(() => authCookie(page), { timeout: 120_000, intervals: [2_000] }).not.toBe(before);
  expect(page.url()).toBe(url);
  await expectSignedIn(page);
  await expect(page.getByLabel("Username")).toBeVisible();
  const html = await (await page.request.get("/account")).text();
  expect(html).toContain(user.email);
  expect(errors).toEqual([]);
});
