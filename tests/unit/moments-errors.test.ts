// What people read when the database refuses a comment or a reaction, field by field.
import { expect, test } from "vitest";
import { momentActionMessages, writeProblem } from "@/lib/moments/errors";
import { momentMessages } from "@/lib/moments/rules";

test("RLS refusals say to join the room", () => {
  expect(writeProblem({ code: "42501", message: 'new row violates row-level security policy for table "moments"' }, "moment")).toEqual({
    message: "Join the room to comment",
  });
  expect(writeProblem({ code: "42501", message: "permission denied" }, "reaction")).toEqual({ message: momentActionMessages.joinToReact });
});

test("constraints by name or by the trigger's words, next to their field", () => {
  expect(writeProblem({ code: "23514", message: "That time is past the end of the media" }, "moment")).toEqual({
    message: momentMessages.atPastEnd,
    field: "atSeconds",
  });
  expect(
    writeProblem(
      { code: "23514", message: 'new row for relation "moments" violates check constraint "moments_at_seconds_range"' },
      "moment",
    ).field,
  ).toBe("atSeconds");
  expect(
    writeProblem({ code: "23514", message: 'new row for relation "moments" violates check constraint "moments_body_length"' }, "moment")
      .field,
  ).toBe("body");
  expect(
    writeProblem({ code: "23505", message: 'duplicate key value violates unique constraint "reactions_one_per_emoji"' }, "reaction"),
  ).toEqual({ message: "You already reacted with that emoji", field: "emoji" });
  expect(writeProblem({ code: "23514", message: 'violates check constraint "reactions_emoji_in_set"' }, "reaction")).toEqual({
    message: momentMessages.emojiNotInSet,
    field: "emoji",
  });
  expect(writeProblem({ code: "23503", message: "That post no longer exists" }, "moment").message).toBe(momentActionMessages.postGone);
  expect(writeProblem({ code: "23503", message: "That comment no longer exists" }, "reaction").message).toBe(
    momentActionMessages.momentGone,
  );
});

test("anything else is a retry message, never the database's text", () => {
  expect(writeProblem({ code: "XX000", message: "internal error: relation 42" }, "moment")).toEqual({
    message: momentActionMessages.saveFailed,
  });
  expect(writeProblem({ message: "fetch failed" }, "reaction")).toEqual({ message: momentActionMessages.reactFailed });
});

test("replies: the refusals of the thread's rules in people's words", () => {
  const say = (message: string, writing: "reply" | "moment" | "reaction" = "reply") =>
    writeProblem({ code: "22023", message }, writing).message;
  expect(say("Reply to the comment that started the thread")).toBe(momentActionMessages.replyToThread);
  expect(say('violates constraint "moments_parent_is_not_a_reply"')).toBe(momentActionMessages.replyToThread);
  expect(say("That comment is no longer there")).toBe(momentActionMessages.parentGone);
  expect(say("A reply stays under the comment it answers", "moment")).toBe(momentActionMessages.replyStays);
  expect(say("That comment was deleted", "moment")).toBe(momentActionMessages.commentDeleted);
  expect(say("That comment was deleted", "reaction")).toBe(momentActionMessages.commentDeleted);
  expect(writeProblem({ code: "42501", message: "permission denied" }, "reply").message).toBe(momentActionMessages.joinToReply);
  expect(writeProblem({ code: "XX000", message: "boom" }, "reply").message).toBe(momentActionMessages.replyFailed);
});
