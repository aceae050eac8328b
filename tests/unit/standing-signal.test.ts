import { describe, expect, test } from "vitest";
import { isStandingChange } from "@/lib/realtime/live-updates";
import { namesPerson } from "@/lib/realtime/room-channel";

// The room's channel says "standing" with ids only when someone is timed out or their timeout is
// lifted; a comment form asks for its own standing again only when the message names its person.
describe("a standing change on the room's channel", () => {
  test("has the room's and the person's ids", () => {
    expect(isStandingChange({ id: "m1", room_id: "r1", user_id: "u1" })).toBe(true);
    for (const bad of [null, "u1", [], {}, { room_id: "r1" }, { user_id: "u1" }, { room_id: "r1", user_id: 7 }]) {
      expect(isStandingChange(bad)).toBe(false);
    }
  });

  test("names the person it is about, and nobody else", () => {
    const change = { room_id: "r1", user_id: "u1" };
    expect(namesPerson(change, "u1")).toBe(true);
    expect(namesPerson(change, "u2")).toBe(false);
    expect(namesPerson(change, null)).toBe(false);
    expect(namesPerson(change, undefined)).toBe(false);
    expect(namesPerson({ room_id: "r1", user_id: "" }, "")).toBe(false);
  });
});
