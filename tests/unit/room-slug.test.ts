import { describe, expect, test } from "vitest";
import { decodeCursor, encodeCursor, likePattern } from "../../lib/rooms/queries";
import { slugFromName } from "../../lib/rooms/slug";
import { roomSlugSchema } from "../../lib/validation/room";

describe("slugFromName", () => {
  test.each([
    ["Late Night Synths", "late-night-synths"],
    ["  Café   Ünïcode!! ", "cafe-unicode"],
    ["--DUB--plates--", "dub-plates"],
    ["???", ""],
  ])("%s → %s", (name, slug) => expect(slugFromName(name)).toBe(slug));

  test("a long name gives an address the schema accepts", () => {
    const slug = slugFromName(`${"a".repeat(47)} b c`);
    expect(slug.length).toBeLessThanOrEqual(48);
    expect(roomSlugSchema.safeParse(slug).success).toBe(true);
  });
});

describe("likePattern", () => {
  test("escapes the pattern characters people type", () => {
    expect(likePattern("100%_\\x")).toBe("100\\%\\_\\\\x");
    expect(likePattern("star*")).toBe("star*");
  });
});

describe("directory cursors", () => {
  test("round-trip a (created_at, id) boundary", () => {
    const boundary = { createdAt: "2026-11-23T18:00:00.123456+00:00", id: "b2b2b2b2-0000-4000-8000-000000000001" };
    expect(decodeCursor(encodeCursor(boundary.createdAt, boundary.id))).toEqual(boundary);
  });

  test.each([
    "",
    "!!",
    Buffer.from("nonsense").toString("base64url"),
    Buffer.from("2026-01-01|not-a-uuid").toString("base64url"),
    Buffer.from('2026-01-01"),id.gt.(|b2b2b2b2-0000-4000-8000-000000000001').toString("base64url"),
  ])("refuses %s", (cursor) => expect(decodeCursor(cursor)).toBeNull());
});
