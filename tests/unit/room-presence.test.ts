// "Here now" from presence on a room's channel: each person once (several tabs, under any key),
// playing what a playing tab plays, the page's own person first; anything malformed is skipped.
import { expect, test } from "vitest";
import { presenceSelf, shapePresence } from "@/lib/realtime/presence";
import { endsMembershipOf } from "@/lib/realtime/room-channel";
import { membershipEndedMessage } from "@/lib/realtime/room-messages";

const ada = { user_id: "u-ada", username: "ada", display_name: "Ada", avatar_path: null };
const bo = { user_id: "u-bo", username: "bo", display_name: "Bo", avatar_path: "u-bo/a.png" };
const song = { post_id: "p-1", title: "Night drive" };

test("each person shows once; a playing tab wins over an idle newer one; self first, then by name", () => {
  const people = shapePresence(
    {
      "u-bo": [{ ...bo, playing: null, at: 1, phx_ref: "x" }, { ...bo, playing: song, at: 2 }],
      random: [{ ...bo, playing: null, at: 5 }],
      "u-ada": [{ ...ada, playing: null, at: 3 }],
    },
    "u-bo",
  );
  expect(people).toEqual([
    { userId: "u-bo", username: "bo", displayName: "Bo", avatarPath: "u-bo/a.png", playing: song, isSelf: true },
    { userId: "u-ada", username: "ada", displayName: "Ada", avatarPath: null, playing: null, isSelf: false },
  ]);
});

test("metas a client filled with anything are skipped or cleaned", () => {
  const people = shapePresence({ a: [{ nonsense: true }, null, "x", { ...ada, playing: { post_id: 5 }, at: "soon" }] as unknown[] }, null);
  expect(people).toEqual([{ userId: "u-ada", username: "ada", displayName: "Ada", avatarPath: null, playing: null, isSelf: false }]);
  expect(shapePresence({}, null)).toEqual([]);
});

test("a member's presence identity comes from their profile", () => {
  expect(presenceSelf({ id: "u-ada", username: "ada", display_name: "Ada", avatar_path: null })).toEqual(ada);
});

test("membership ends on a delete, or a change to no role, of the page's own person only", () => {
  const change = { operation: "DELETE", room_id: "r", user_id: "u-ada", role: null } as const;
  expect(endsMembershipOf(change, "u-ada")).toBe(true);
  expect(endsMembershipOf(change, "u-bo")).toBe(false);
  expect(endsMembershipOf(change, null)).toBe(false);
  expect(endsMembershipOf({ ...change, operation: "UPDATE", role: "moderator" }, "u-ada")).toBe(false);
  expect(endsMembershipOf({ ...change, operation: "UPDATE", role: null }, "u-ada")).toBe(true);
});

test("the page says why it stopped", () => {
  expect(membershipEndedMessage(true, false)).toMatch(/^You're no longer a member of this room — .*stopped updating/);
  expect(membershipEndedMessage(false, false)).toMatch(/^You're no longer a member of this room — .*read along/);
  expect(membershipEndedMessage(true, true)).toMatch(/^You left this room/);
});
