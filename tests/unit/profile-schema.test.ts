import { describe, expect, test } from "vitest";
import { fieldErrors, profileMessages, profileSchema } from "../../lib/validation/profile";

const valid = { username: "ada_99", displayName: "Ada Lovelace", bio: "Synths." };

function errorsFor(input: Record<string, unknown>) {
  const parsed = profileSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
}

describe("profileSchema", () => {
  test("accepts a valid profile and trims what people type", () => {
    expect(profileSchema.parse({ username: " ada_99 ", displayName: "  Ada Lovelace ", bio: " Synths. " })).toEqual(valid);
  });

  test.each(["ab", "a".repeat(25), "Ada", "ada-99", "ada 99", "ädä", "", "ada!"])(
    "rejects the username %j with the format message",
    (username) => {
      expect(errorsFor({ ...valid, username })).toEqual({ username: profileMessages.usernameFormat });
    },
  );

  test.each(["settings", "login", "rooms", "signup", "admin"])("rejects the reserved word %j", (username) => {
    expect(errorsFor({ ...valid, username })).toEqual({ username: profileMessages.usernameReserved });
  });

  test("accepts the limits themselves", () => {
    expect(errorsFor({ username: "abc", displayName: "x".repeat(50), bio: "y".repeat(280) })).toEqual({});
    expect(errorsFor({ username: "a".repeat(24), displayName: "x", bio: "" })).toEqual({});
  });

  test("a blank display name, a long one and a long bio each get their own message", () => {
    expect(errorsFor({ ...valid, displayName: "   " })).toEqual({ displayName: profileMessages.displayNameRequired });
    expect(errorsFor({ ...valid, displayName: "x".repeat(51) })).toEqual({ displayName: profileMessages.displayNameTooLong });
    expect(errorsFor({ ...valid, bio: "y".repeat(281) })).toEqual({ bio: profileMessages.bioTooLong });
  });

  test("reports every invalid field at once", () => {
    expect(Object.keys(errorsFor({ username: "A", displayName: "", bio: "z".repeat(300) })).sort()).toEqual([
      "bio",
      "displayName",
      "username",
    ]);
  });
});
