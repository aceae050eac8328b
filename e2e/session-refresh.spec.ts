import { expect, test } from "@playwright/test";
import { expectSignedIn, signInWithPassword, watchConsole } from "./support/pages";
import { createRoomAs, signedInClient } from "./support/post-rooms";
import { createConfirmedUser } from "./support/users";

// `npm test` runs the e2e layer against Auth with a short access-token lifetime
// (STACK_AUTH_JWT_EXPIRY, 150 s), so supabase-js must refresh it while the page is open. A signed-in
// page sends the token in its cookies until it is due (120 s before expiry), then loads the session
// client, which refreshes a token once it expires within three 30 s ticks: a 150 s token is renewed
// about a minute after sign-in.
const authCookie = async (page: import("@playwright/test").Page) =>
  (await page.context().cookies())
    .filter((cookie) => /^sb-.*-auth-token/.test(cookie.name))
    .map((cookie) => cookie.value)
    .join("");

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
  expect(
    session.expires_in,
    "Auth must issue short access tokens here: start the API with STACK_AUTH_JWT_EXPIRY=150 (npm test does)",
  ).toBeLessThanOrEqual(150);
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

test("a live room joined with the token in the cookies stays live across its refresh and past its expiry", async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await watchConsole(page);
  const user = await createConfirmedUser("refresh-live");
  const client = await signedInClient(user.email, user.password);
  const room = await createRoomAs(client, "refresh-live");
  const joinTokens: string[] = [];
  page.on("websocket", (socket) =>
    socket.on("framesent", ({ payload }) => {
      const [, , topic, event, body] = JSON.parse(String(payload)) as [unknown, unknown, string, string, { access_token?: string }];
      if (event === "phx_join" && topic === `realtime:room:${room.id}` && body.access_token) joinTokens.push(body.access_token);
    }),
  );
  await signInWithPassword(page, user.email, user.password);
  await expectSignedIn(page);
  const first = parseSession(await authCookie(page)) as { access_token: string; expires_at: number };
  await page.goto(`/r/${room.slug}`);
  const status = page.getByRole("region", { name: "Here now" }).getByRole("status");
  await expect(status).toHaveText("Live", { timeout: 20_000 });
  expect(joinTokens, "the join carries the signed-in person's token, not the anon key").toEqual([first.access_token]);
  // Every state the indicator shows from now on: a refresh must not show as a reconnect.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    const indicator = document.querySelector("[data-live-status]")!;
    new MutationObserver(() => seen.push(indicator.getAttribute("data-live-status") ?? "")).observe(indicator, { attributes: true });
  });

  await expect
    .poll(async () => (parseSession(await authCookie(page)) as { access_token: string }).access_token, {
      timeout: 150_000,
      intervals: [2_000],
    })
    .not.toBe(first.access_token);
  // Past the first token's expiry, the server would have closed a channel still holding it.
  await page.waitForTimeout(Math.max(0, first.expires_at * 1000 - Date.now() + 5_000));
  const { error } = await client.from("posts").insert({
    room_id: room.id,
    author_id: user.id,
    title: "After the refresh",
    media_kind: "embed",
    media_url: "https://media.cuepoint-files.com/after.wav",
  });
  expect(error).toBeNull();
  await expect(page.getByRole("region", { name: "Posts" }).getByRole("link", { name: "After the refresh", exact: true })).toBeVisible();
  await expect(status).toHaveText("Live");
  expect(await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses)).toEqual([]);
  expect(joinTokens, "the channel was never joined again").toHaveLength(1);
  expect(errors).toEqual([]);
});
