import { describe, expect, test } from "vitest";
import { emailRedirect } from "../../lib/auth/links";
import { afterSignInPath, isAuthPage, isNewWalletAccount, linkLandingPath, safeNextPath } from "../../lib/auth/redirect";

describe("safeNextPath", () => {
  test.each([
    ["/account", "/account"],
    ["/r/synth-club?tab=posts#top", "/r/synth-club?tab=posts#top"],
    ["/u/ada", "/u/ada"],
    // Normalised, and still on this site.
    ["/r/./synth-club", "/r/synth-club"],
    ["/a/../account", "/account"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ])("keeps the on-site path %j", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  test.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/\tevil",
    "evil.example",
    "",
    null,
    undefined,
    "/%5C%5Cevil.example".replace("%5C%5C", "\\\\"),
    // Paths that become `//host` only once normalised (dot segments, encoded dots).
    "/.//evil.example/phish",
    "/..//evil.example/phish",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/./\\evil.example",
    "/\nevil",
    "/\r//evil.example",
    "https:evil.example",
    "http://cuepoint.invalid//evil.example",
  ])("sends %j to / instead", (input) => {
    expect(safeNextPath(input as string | null | undefined)).toBe("/");
  });

  test("uses the given fallback", () => {
    expect(safeNextPath("//x", "/account")).toBe("/account");
  });
});

test("sign-in and sign-up are auth pages; the rest are not", () => {
  expect(isAuthPage("/login")).toBe(true);
  expect(isAuthPage("/signup")).toBe(true);
  expect(isAuthPage("/account")).toBe(false);
});

describe("linkLandingPath (where /auth/confirm sends an email link)", () => {
  test.each([
    [null, "/"],
    ["", "/"],
    ["http://localhost:3000", "/"],
    ["http://localhost:3000/", "/"],
    ["http://localhost:3000/welcome", "/welcome"],
    ["http://localhost:3000/rooms?tab=live&q=a%20b#now", "/rooms?tab=live&q=a%20b#now"],
    ["https://cuepoint.example/account", "/account"],
    ["http://localhost:3000/auth/confirm?next=%2Faccount%3Fx%3D1%26y%3D2", "/account?x=1&y=2"],
    ["http://localhost:3000/auth/confirm", "/"],
    ["/account/password", "/account/password"],
    ["/auth/confirm?next=/u/ada", "/u/ada"],
    ["https://evil.example/steal", "/"],
    ["http://localhost:3001/account", "/"],
  ])("%j lands on %j", (next, expected) => {
    expect(linkLandingPath(next, ["http://localhost:3000", "https://cuepoint.example"])).toBe(expected);
  });

  test.each([
    "//evil.example/x",
    "javascript:alert(1)",
    "http://localhost:3000/auth/confirm?next=//evil.example",
    "http://[bad",
    "http://localhost:3000/auth/confirm?next=https%3A%2F%2Fevil.example%2F%2F%2Fx",
  ])("%j stays on the site", (next) => {
    const landing = linkLandingPath(next, ["http://localhost:3000"]);
    expect(landing.startsWith("/")).toBe(true);
    expect(landing.startsWith("//")).toBe(false);
    expect(new URL(landing, "http://site.test").origin).toBe("http://site.test");
  });
});

describe("emailRedirect (the redirect the forms give Supabase Auth)", () => {
  test("the destination on the given origin, kept on the site", () => {
    expect(emailRedirect("/account", "http://localhost:3201")).toBe("http://localhost:3201/account");
    expect(emailRedirect("//evil.example", "http://localhost:3201")).toBe("http://localhost:3201/");
  });
});

describe("the welcome step after a wallet's first signature made the account", () => {
  const made = "2026-11-27T10:00:00.000Z";
  const wallet = { provider: "web3" };
  test("a wallet's sign-in in the request that created the account made it: the welcome step comes before next", () => {
    expect(isNewWalletAccount({ created_at: made, last_sign_in_at: "2026-11-27T10:00:00.400Z", app_metadata: wallet })).toBe(true);
    expect(afterSignInPath({ created_at: made, last_sign_in_at: "2026-11-27T10:00:01.000Z", app_metadata: wallet }, "/r/synths?x=1")).toBe(
      `/welcome?next=${encodeURIComponent("/r/synths?x=1")}`,
    );
  });
  test("a later sign-in goes straight to next; an unsafe next is still refused", () => {
    const later = { created_at: made, last_sign_in_at: "2026-11-28T09:00:00.000Z", app_metadata: wallet };
    expect(isNewWalletAccount(later)).toBe(false);
    expect(isNewWalletAccount({ created_at: made, last_sign_in_at: "2026-11-27T10:00:05.000Z", app_metadata: wallet })).toBe(false);
    expect(afterSignInPath(later, "/account")).toBe("/account");
    expect(afterSignInPath(later, "//evil.example")).toBe("/");
    expect(afterSignInPath({ created_at: made, last_sign_in_at: made, app_metadata: wallet }, "https://evil.example/")).toBe(
      `/welcome?next=${encodeURIComponent("/")}`,
    );
  });
  test("an email account's first password sign-in is not a wallet's: its welcome came with the confirmation link", () => {
    expect(isNewWalletAccount({ created_at: made, last_sign_in_at: made, app_metadata: { provider: "email" } })).toBe(false);
    expect(afterSignInPath({ created_at: made, last_sign_in_at: made, app_metadata: { provider: "email" } }, "/")).toBe("/");
  });
  test("without the times, it is not taken for a new account", () => {
    expect(isNewWalletAccount({ app_metadata: wallet })).toBe(false);
    expect(isNewWalletAccount({ created_at: made, last_sign_in_at: null, app_metadata: wallet })).toBe(false);
  });
});
