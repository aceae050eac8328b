// Errors of the session's functions in words: the function's own sentence; a request that never got
// there; an expired sign-in; never a bare constraint name.
import { expect, test } from "vitest";
import { sessionErrorText, sessionMessages } from "@/lib/sessions/rpc";

test("the function's own words are shown as they are", () => {
  expect(sessionErrorText({ code: "42501", message: "Only the host controls playback" })).toBe("Only the host controls playback");
  expect(sessionErrorText({ code: "PT409", message: "A session is already on in this room — join it" })).toBe(
    "A session is already on in this room — join it",
  );
});

test("a request that never reached the server says so", () => {
  expect(sessionErrorText({ code: "", message: "TypeError: Failed to fetch" })).toBe(sessionMessages.unreachable);
  expect(sessionErrorText({ message: "fetch failed" })).toBe(sessionMessages.unreachable);
});

test("an expired sign-in asks to sign in again", () => {
  expect(sessionErrorText({ code: "PGRST301", message: "JWT expired" })).toBe(sessionMessages.signedOut);
});

test("a message that is not a sentence for people is replaced", () => {
  expect(sessionErrorText({ code: "23514", message: 'new row violates check constraint "listening_sessions_rate_range"' })).toBe(
    sessionMessages.failed,
  );
});
