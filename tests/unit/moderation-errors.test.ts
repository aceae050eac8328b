// What people read when Postgres refuses because of a timeout, slow mode or a ban: the refusal's
// time (ISO in DETAIL) in the reader's own zone, and the moderation functions' own sentences.
import { expect, test } from "vitest";
import { moderationActionError, moderationMessages, moderationRefusal, untilWords, waitWords } from "@/lib/moderation/errors";
import { messages } from "@/lib/messages";

const now = Date.parse("2026-11-27T18:00:00Z");

test("a time ahead in the reader's zone: today, tomorrow, this year, later", () => {
  expect(untilWords("2026-11-27T21:40:00Z", { now, timeZone: "UTC" })).toBe("21:40");
  expect(untilWords("2026-11-27T21:40:00Z", { now, timeZone: "Europe/Berlin" })).toBe("22:40");
  // in Tokyo both are on the 28th: now (18:00 UTC) is 03:00 there, the end 06:40
  expect(untilWords("2026-11-27T21:40:00Z", { now, timeZone: "Asia/Tokyo" })).toBe("06:40");
  expect(untilWords("2026-11-28T09:05:00Z", { now, timeZone: "UTC" })).toBe("tomorrow at 09:05");
  expect(untilWords("2026-12-05T21:40:00Z", { now, timeZone: "UTC" })).toBe("Sat 5 Dec at 21:40");
  expect(untilWords("2027-01-02T08:00:00Z", { now, timeZone: "UTC" })).toBe("2 Jan 2027 at 08:00");
  expect(untilWords("not a time", { now })).toBe("not a time");
});

test("waits round up to the unit people say", () => {
  expect(waitWords(200)).toBe("1 second");
  expect(waitWords(12_100)).toBe("13 seconds");
  expect(waitWords(60_000)).toBe("1 minute");
  expect(waitWords(61_000)).toBe("2 minutes");
  expect(waitWords(3_600_000)).toBe("1 hour");
  expect(waitWords(3_600_001)).toBe("2 hours");
});

test("a timeout's refusal says until when, in the reader's time", () => {
  const error = {
    code: "42501",
    message: "You're timed out until 27 Nov 2026, 21:40 UTC — you can still read and listen.",
    details: "2026-11-27T21:40:00Z",
    hint: "timed_out",
  };
  expect(moderationRefusal(error, { now, timeZone: "Europe/Berlin" })).toBe(
    "You're timed out until 22:40 — you can still read and listen.",
  );
  // without an ISO time, the database's own words
  expect(moderationRefusal({ ...error, details: null }, { now })).toBe(error.message);
});

test("slow mode says how long to wait, counted from now", () => {
  const error = {
    code: "PT429",
    message: "Slow mode is on in this room — you can comment again in 30 seconds",
    details: "2026-11-27T18:00:12Z",
    hint: "slow_mode",
  };
  expect(moderationRefusal(error, { now })).toBe("Slow mode is on in this room — you can comment again in 12 seconds.");
  expect(moderationRefusal(error, { now: now + 20_000 })).toBe(moderationMessages.slowModeNow);
});

test("a ban says until when, or that it is for good; a barred wallet says so", () => {
  expect(
    moderationRefusal(
      { code: "42501", message: "You were banned from this room until 28 Nov 2026, 09:00 UTC", details: "2026-11-28T09:00:00Z" },
      { now, timeZone: "UTC" },
    ),
  ).toBe("You were banned from this room until tomorrow at 09:00.");
  expect(moderationRefusal({ code: "42501", message: "You were banned from this room", details: "permanent" })).toBe(
    moderationMessages.bannedForGood,
  );
  expect(
    moderationRefusal({
      code: "42501",
      message: "This wallet was linked to an account banned from this room, so it can't let anyone in",
      details: "wallet",
    }),
  ).toBe(moderationMessages.walletBarred);
});

test("other errors are not moderation refusals", () => {
  expect(moderationRefusal({ code: "42501", message: 'new row violates row-level security policy for table "moments"' })).toBeNull();
  expect(moderationRefusal({ code: "PT429", message: "You're commenting quickly — try again in 20 seconds" })).toBeNull();
  expect(moderationRefusal(null)).toBeNull();
});

test("a moderation function's refusal is its own sentence; anything else is not shown as it is", () => {
  expect(moderationActionError({ code: "42501", message: "Only the owner can ban a moderator" })).toBe(
    "Only the owner can ban a moderator.",
  );
  expect(moderationActionError({ code: "22023", message: "A timeout lasts from 10 minutes to 28 days" })).toBe(
    "A timeout lasts from 10 minutes to 28 days.",
  );
  expect(
    moderationActionError({ code: "42501", message: "permission denied for function ban_member" }, "We couldn't ban them — try again."),
  ).toBe("We couldn't ban them — try again.");
  expect(moderationActionError({ code: "23514", message: 'violates check constraint "bans_reason_length"' })).toBe(messages.failed);
  expect(moderationActionError({ message: "TypeError: Failed to fetch" })).toBe(messages.unreachable);
  expect(moderationActionError({ code: "PGRST301", message: "JWT expired" })).toBe(messages.sessionEnded);
});
