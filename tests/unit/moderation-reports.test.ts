// The rules and words of reports and held comments (lib/moderation/reports.ts, held.ts): what a form
// checks before the database does, how the database's refusals read, and the queue's rows in the
// app's shape.
import { describe, expect, test } from "vitest";
import { blockedTermSchema, heldMessages, withheldNote } from "@/lib/moderation/held";
import {
  approvalInputSchema,
  moderationTopic,
  queueItemFromRow,
  reportError,
  reportInputSchema,
  reportMessages,
  resolutionInputSchema,
} from "@/lib/moderation/reports";
import { messages } from "@/lib/messages";

const post = "00000000-0000-4000-8000-000000000001";
const moment = "00000000-0000-4000-8000-000000000002";

describe("a report's input", () => {
  test("names exactly one post or comment, a category from the list, and a note of at most 500 characters", () => {
    expect(reportInputSchema.parse({ postId: post, category: "spam" })).toEqual({ postId: post, category: "spam", note: "" });
    expect(reportInputSchema.parse({ momentId: moment, category: "other", note: "  why  " }).note).toBe("why");
    const issue = (input: unknown) => reportInputSchema.safeParse(input).error?.issues[0]?.message;
    expect(issue({ category: "spam" })).toBe(reportMessages.oneItem);
    expect(issue({ postId: post, momentId: moment, category: "spam" })).toBe(reportMessages.oneItem);
    expect(issue({ postId: post, category: "rude" })).toBe(reportMessages.category);
    expect(issue({ postId: post, category: "spam", note: "n".repeat(501) })).toBe(reportMessages.noteTooLong);
    expect(issue({ postId: "not-an-id", category: "spam" })).toBe("Not a valid post");
  });

  test("a resolution and an approval take a reason of at most 500 characters", () => {
    expect(resolutionInputSchema.parse({ momentId: moment })).toEqual({ momentId: moment, reason: "" });
    expect(resolutionInputSchema.safeParse({ postId: post, reason: "r".repeat(501) }).error?.issues[0]?.message).toBe(
      reportMessages.reasonTooLong,
    );
    expect(approvalInputSchema.safeParse({ momentId: "x" }).success).toBe(false);
  });
});

describe("a blocked term", () => {
  test("is 1–60 characters, trimmed, its inner spaces made single", () => {
    expect(blockedTermSchema.parse({ roomId: post, term: "  buy   now " }).term).toBe("buy now");
    expect(blockedTermSchema.safeParse({ roomId: post, term: "   " }).error?.issues[0]?.message).toBe(heldMessages.termLength);
    expect(blockedTermSchema.safeParse({ roomId: post, term: "x".repeat(61) }).error?.issues[0]?.message).toBe(heldMessages.termLength);
  });

  test("a held or hidden item tells its author so", () => {
    expect(withheldNote({ held_at: "2026-11-27T00:00:00Z" })).toBe("Held for review");
    expect(withheldNote({ hidden_at: "2026-11-27T00:00:00Z" })).toBe("Hidden until a moderator reviews it");
    expect(withheldNote({ held_at: null, hidden_at: null })).toBeNull();
  });
});

describe("the database's refusals", () => {
  test("the functions' sentences are shown as they are; constraints get their words; the rest the fallback", () => {
    expect(reportError({ code: "23505", message: "You've already reported this post" }, "x")).toBe("You've already reported this post");
    expect(reportError({ code: "42501", message: "Only the room's owner and moderators can dismiss reports" }, "x")).toBe(
      "Only the room's owner and moderators can dismiss reports",
    );
    expect(reportError({ code: "23505", message: 'duplicate key value violates unique constraint "room_blocked_terms_once"' }, "x")).toBe(
      "That term is already blocked",
    );
    expect(
      reportError({ code: "23514", message: 'new row for relation "reports" violates check constraint "reports_category"' }, "x"),
    ).toBe(reportMessages.category);
    expect(reportError({ code: "42501", message: "permission denied for function report_content" }, "x")).toBe(messages.sessionEnded);
    expect(reportError({ code: "PGRST000", message: "Could not connect" }, "fallback")).toBe("fallback");
    expect(reportError({ message: "TypeError: fetch failed" }, "fallback")).toBe("fallback");
  });
});

describe("the queue", () => {
  test("a row in the app's shape, unknown categories left out", () => {
    const item = queueItemFromRow({
      item_id: moment,
      kind: "comment",
      post_id: post,
      moment_id: moment,
      post_title: "Title",
      body: "words",
      at_seconds: 12,
      author_id: post,
      author_username: "ada",
      author_display_name: "Ada",
      created_at: "2026-11-27T00:00:00Z",
      hidden_at: null as unknown as string,
      held_at: "2026-11-27T00:01:00Z",
      report_count: 1,
      categories: ["spam", "weird"],
      reports: [
        {
          id: "r",
          category: "spam",
          note: "n",
          created_at: "2026-11-27T00:02:00Z",
          reporter_id: "u",
          reporter_username: "bo",
          reporter_display_name: "Bo",
        },
      ],
      queued_at: "2026-11-27T00:02:00Z",
    });
    expect(item).toMatchObject({ kind: "comment", momentId: moment, heldAt: "2026-11-27T00:01:00Z", categories: ["spam"] });
    expect(item.reports).toEqual([
      { id: "r", category: "spam", note: "n", createdAt: "2026-11-27T00:02:00Z", reporter: { id: "u", username: "bo", displayName: "Bo" } },
    ]);
  });

  test("the moderators' topic follows the room's access epoch", () => {
    expect(moderationTopic(post)).toBe(`moderation:${post}`);
    expect(moderationTopic(post, 3)).toBe(`moderation:${post}:3`);
  });
});
