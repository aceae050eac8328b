// Who may start listening sessions: the schema the settings form and its action share, and how
// Postgres' refusal of the choice reads.
import { describe, expect, test } from "vitest";
import { roomWriteError } from "../../lib/rooms/write-errors";
import { sessionStarterChoices, sessionStarterLabels } from "../../lib/rooms/session-starters";
import { roomMessages, sessionStartersSchema } from "../../lib/validation/room";

describe("the session starters choice", () => {
  test("the owner and moderators, or any member: the two values rooms.session_starters allows, with their labels", () => {
    expect(sessionStarterChoices).toEqual(["moderators", "members"]);
    expect(sessionStarterLabels).toEqual({ moderators: "Owner and moderators", members: "Any member" });
    for (const choice of sessionStarterChoices)
      expect(sessionStartersSchema.parse({ sessionStarters: choice })).toEqual({ sessionStarters: choice });
  });

  test.each([["everyone"], [""], ["Members"], [" members"], [null], [undefined], [1]])(
    "%j is refused with words that name the choices",
    (value) => {
      const parsed = sessionStartersSchema.safeParse({ sessionStarters: value });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["sessionStarters", roomMessages.sessionStartersUnknown],
      ]);
    },
  );

  test("Postgres' refusals read as sentences: a moderator's change (the trigger), and the check constraint", () => {
    expect(roomWriteError({ code: "42501", message: "Only the owner decides who may start listening sessions" }, "x")).toEqual({
      message: "Only the owner decides who may start listening sessions.",
    });
    expect(
      roomWriteError({ code: "23514", message: 'new row for relation "rooms" violates check constraint "rooms_session_starters"' }, "x"),
    ).toEqual({
      field: "sessionStarters",
      message: roomMessages.sessionStartersUnknown,
    });
  });
});
