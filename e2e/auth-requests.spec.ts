import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signHs256 } from "@cuepoint/stack/keys";
import { logsDir } from "@cuepoint/stack/paths";
import { freshSessionCookies } from "../tests/helpers/session-cookies";
import { apiUrl, createConfirmedUser } from "./support/users";

// The project signs access tokens with an asymmetric key, so the proxy and the server render verify
// a session locally (getClaims against the cached JWKS): a signed-in page view asks Auth nothing.
// Counted in the stack's gateway access log (one line per request, as Kong logs them), which sees
// the app server's requests and the browser's alike.
const accessLog = path.join(logsDir, "access.log");

/** The requests the stack answered while `action` ran: method and path of each. */
async function requestsDuring(action: () => Promise<void>): Promise<string[]> {
  const start = statSync(accessLog).size;
  await action();
  // the log is written when a response finishes; let the last lines land
  await new Promise((resolve) => setTimeout(resolve, 500));
  const lines = readFileSync(accessLog).subarray(start).toString("utf8").split("\n").filter(Boolean);
  return lines.map((line) => /"(\S+) (\S+) HTTP/.exec(line)?.slice(1, 3).join(" ") ?? line);
}

const sessionCookies = async (user: { email: string; password: string }, sign?: (claims: Record<string, unknown>) => string) =>
  (await freshSessionCookies(apiUrl, user, sign)).map((cookie) => ({ ...cookie, domain: "localhost", path: "/" }));

test("a signed-in page view with a fresh token makes no request to /auth/v1", async ({ page }) => {
  const user = await createConfirmedUser("claims");
  await page.context().addCookies(await sessionCookies(user));
  // The first view after the server starts fetches the signing keys once (cached ten minutes).
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();

  const requests = await requestsDuring(async () => {
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    await expect(page.getByText(user.email)).toBeVisible();
    await page.waitForLoadState("networkidle");
  });
  // the log saw the view (the profile and wallets the render read) …
  expect(requests).toContain("GET /rest/v1/profiles");
  // … and nothing went to Auth: not the proxy, not the render, not the browser
  expect(requests.filter((request) => request.includes(" /auth/v1/"))).toEqual([]);
});

test("with a legacy HS256 token the same view asks Auth (getClaims falls back to GET /user)", async ({ page }) => {
  // The stack still accepts tokens signed with the legacy secret; supabase-js cannot verify those
  // locally, so this is the cost the asymmetric key removes.
  const user = await createConfirmedUser("claims-legacy");
  await page.context().addCookies(await sessionCookies(user, (claims) => signHs256(claims)));
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  const requests = await requestsDuring(async () => {
    await page.goto("/account");
    await expect(page.getByText(user.email)).toBeVisible();
    await page.waitForLoadState("networkidle");
  });
  expect(requests.filter((request) => request === "GET /auth/v1/user").length).toBeGreaterThanOrEqual(2);
});
