import { expect, test } from "@playwright/test";
import { expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { createConfirmedUser } from "./support/users";

// `npm test` runs the e2e layer against Auth with a short access-token lifetime
// (STACK_AUTH_JWT_EXPIRY, 120 s), so supabase-js must refresh it while the page is open. It refreshes
// a token once it expires within three 30 s ticks, so a 120 s token is renewed at the first tick,
// seconds after the page loads.
const authCookie = async (page: import("@playwright/test").Page) =>
  (await page.context().cookies()).filter((cookie) => /^sb-.*-auth-token/.test(cookie.name)).map((cookie) => cookie.value).join("");

const parseSession = (cookie: string): unknown => JSON.parse(Buffer.from(cookie.replace(/^base64-/, ""), "base64url").toString("utf8"));

test("an access token that expires is refreshed with no visible effect", async ({ page }) => {
  test.setTimeout(150_000);
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("refresh");
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  await page.goto("/account");
  const before = await authCookie(page);
  const session = parseSession(before) as { expires_in: number };
  expect(session.expires_in, "Auth must issue short access tokens here: start the API with STACK_AUTH_JWT_EXPIRY=120 (npm test does)").toBeLessThanOrEqual(120);
  const url = page.url();
  const accessToken = async () => (parseSession(await authCookie(page)) as { access_token: string }).access_token;
  const firstToken = (parseSession(before) as { access_token: string }).access_token;
  await expect.poll(accessToken, { timeout: 120_000, intervals: [2_000] }).not.toBe(firstToken);
  const refreshed = parseSession(await authCookie(page)) as { expires_at: number };
  expect(refreshed.expires_at).toBeGreaterThan((parseSession(before) as { expires_at: number }).expires_at);
  expect(page.url()).toBe(url);
  await expectSignedIn(page);
  await expect(page.getByLabel("Username")).toBeVisible();
  const html = await (await page.request.get("/account")).text();
  expect(html).toContain(user.email);
  expect(errors).toEqual([]);
});
