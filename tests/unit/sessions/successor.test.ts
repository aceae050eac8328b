// Who takes over from a host who left: moderators and the owner first, longest present first, ties
// by id; the host never succeeds themselves; each person counts once (their earliest tab).
import { expect, test } from "vitest";
import { claimDelayMs, fallbackStepMs, hostQuietMs, successionOrder, successorOf } from "@/lib/sessions/successor";
import type { RoomRole } from "@/lib/sessions/types";
import { listenerMeta } from "../../helpers/listeners";

const meta = (user_id: string, role: RoomRole, since: number) => listenerMeta(user_id, role, since);

test("the longest-present moderator or owner comes first, even if a member was there longer", () => {
  const here = [meta("host", "owner", 1), meta("early-member", "member", 2), meta("mod", "moderator", 5), meta("late-mod", "moderator", 9)];
  expect(successorOf(here, "host")).toBe("mod");
  expect(successionOrder(here, "host").map((m) => m.user_id)).toEqual(["mod", "late-mod", "early-member"]);
});

test("without moderators, the longest-present member", () => {
  expect(successorOf([meta("host", "member", 1), meta("b", "member", 7), meta("a", "member", 3)], "host")).toBe("a");
});

test("ties go by user id, so every page agrees", () => {
  expect(successorOf([meta("zed", "member", 4), meta("amy", "member", 4)], "host")).toBe("amy");
});

test("a person with two tabs counts once, from their earliest", () => {
  const here = [meta("a", "member", 10), meta("b", "member", 6), meta("a", "member", 2)];
  expect(successionOrder(here, null).map((m) => [m.user_id, m.since])).toEqual([
    ["a", 2],
    ["b", 6],
  ]);
});

test("nobody else here: no successor", () => {
  expect(successorOf([meta("host", "owner", 1)], "host")).toBeNull();
  expect(successorOf([], "host")).toBeNull();
});

test("the successor claims at once; the others only after the host's quiet window, in turn; someone not here never claims", () => {
  const here = [meta("mod", "moderator", 5), meta("a", "member", 1), meta("b", "member", 2)];
  expect(claimDelayMs(here, "host", "mod")).toBe(0);
  expect(claimDelayMs(here, "host", "a")).toBe(hostQuietMs + fallbackStepMs);
  expect(claimDelayMs(here, "host", "b")).toBe(hostQuietMs + 2 * fallbackStepMs);
  expect(claimDelayMs(here, "host", "stranger")).toBeNull();
});
