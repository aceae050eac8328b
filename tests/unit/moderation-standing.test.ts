// The caller's standing as the pages and the composer read it: what to say, and the slow-mode wait.
import { expect, test } from "vitest";
import {
  afterComment,
  banLine,
  composerNotice,
  goodStanding,
  isBanned,
  isTimedOut,
  slowModeWaitMs,
  standingFromRow,
} from "@/lib/moderation/standing";
import { isSlowModeSeconds, slowModeChoices, timeoutChoices, timeoutInputSchema, banInputSchema } from "@/lib/moderation/rules";

const now = Date.parse("2026-11-27T18:00:00Z");
const row = {
  banned: false,
  banned_until: null,
  ban_reason: null,
  timed_out_until: null,
  timeout_reason: null,
  slow_mode_seconds: 30,
  slow_mode_applies: true,
  next_comment_at: "2026-11-27T18:00:20Z",
};

test("a row becomes a standing; no row is good standing", () => {
  expect(standingFromRow(null)).toEqual(goodStanding);
  expect(standingFromRow(row)).toMatchObject({
    banned: false,
    slowModeSeconds: 30,
    slowModeApplies: true,
    nextCommentAt: "2026-11-27T18:00:20Z",
  });
});

test("slow mode: the wait, counted down, and after one's own comment", () => {
  const standing = standingFromRow(row);
  expect(slowModeWaitMs(standing, now)).toBe(20_000);
  expect(slowModeWaitMs(standing, now + 25_000)).toBe(0);
  expect(composerNotice(standing, { now })).toBe("Slow mode is on in this room — you can comment again in 20 seconds.");
  expect(composerNotice(standing, { now: now + 20_000 })).toBeNull();
  expect(slowModeWaitMs(afterComment(standing, now + 30_000), now + 31_000)).toBe(29_000);
  // moderators are exempt: nothing to count
  const exempt = standingFromRow({ ...row, slow_mode_applies: false, next_comment_at: null });
  expect(afterComment(exempt, now)).toBe(exempt);
  expect(composerNotice(exempt, { now })).toBeNull();
});

test("a timeout shows in the composer until it ends by itself", () => {
  const standing = standingFromRow({ ...row, timed_out_until: "2026-11-27T21:40:00Z", timeout_reason: "flooding" });
  expect(isTimedOut(standing, now)).toBe(true);
  expect(composerNotice(standing, { now, timeZone: "UTC" })).toBe("You're timed out until 21:40 — you can still read and listen.");
  expect(isTimedOut(standing, Date.parse("2026-11-27T21:40:01Z"))).toBe(false);
});

test("a ban's line: until when, or for good; none once it ended", () => {
  const timed = standingFromRow({ ...row, banned: true, banned_until: "2026-11-28T09:00:00Z", ban_reason: "spam" });
  expect(banLine(timed, { now, timeZone: "UTC" })).toBe("You were banned from this room until tomorrow at 09:00.");
  expect(isBanned(timed, Date.parse("2026-11-28T09:00:01Z"))).toBe(false);
  expect(banLine(timed, { now: Date.parse("2026-11-28T09:00:01Z") })).toBeNull();
  expect(banLine(standingFromRow({ ...row, banned: true }), { now })).toBe("You were banned from this room.");
  expect(banLine(goodStanding, { now })).toBeNull();
});

test("the rules the forms check are the database's", () => {
  expect([0, 5, 3600].every(isSlowModeSeconds)).toBe(true);
  expect([4, 3601, 2.5, -1].some(isSlowModeSeconds)).toBe(false);
  expect(slowModeChoices.every((choice) => isSlowModeSeconds(choice.seconds))).toBe(true);
  const target = { roomId: "48100000-0000-4000-8000-000000000001", userId: "48000000-0000-4000-8000-00000000000d" };
  expect(timeoutChoices.every((choice) => timeoutInputSchema.safeParse({ ...target, minutes: choice.minutes }).success)).toBe(true);
  expect(timeoutInputSchema.safeParse({ ...target, minutes: 9 }).error?.issues[0]?.message).toBe(
    "A timeout lasts from 10 minutes to 28 days",
  );
  expect(timeoutInputSchema.safeParse({ ...target, minutes: 40321 }).success).toBe(false);
  expect(banInputSchema.parse({ ...target, reason: "  spam  " })).toEqual({ ...target, reason: "spam", expiresAt: null });
  expect(banInputSchema.safeParse({ ...target, reason: "x".repeat(501) }).success).toBe(false);
  expect(banInputSchema.safeParse({ ...target, expiresAt: "soon" }).success).toBe(false);
});
