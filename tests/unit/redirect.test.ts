import { describe, expect, test } from "vitest";
import { isAuthPage, safeNextPath } from "../../lib/auth/redirect";

describe("safeNextPath", () => {
  test.each([
    ["/account", "/account"],
    ["/r/synth-club?tab=posts#top", "/r/synth-club?tab=posts#top"],
    ["/u/ada", "/u/ada"],
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
