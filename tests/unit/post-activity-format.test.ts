import { expect, test } from "vitest";
import { commentCountText, formatActivity } from "@/components/posts/format";

const now = Date.parse("2026-11-27T12:00:00Z");
const ago = (ms: number) => new Date(now - ms).toISOString();

test.each([
  [ago(10_000), "just now"],
  [ago(-5_000), "just now"],
  [ago(5 * 60_000), "5 min ago"],
  [ago(3 * 3_600_000), "3 h ago"],
  [ago(26 * 3_600_000), "1 day ago"],
  [ago(3 * 86_400_000), "3 days ago"],
  ["2026-10-01T08:00:00Z", "Oct 1, 2026"],
  ["not a time", ""],
])("activity at %s reads %j", (iso, text) => {
  expect(formatActivity(iso, now)).toBe(text);
});

test("comment counts", () => {
  expect(commentCountText(0)).toBe("No comments");
  expect(commentCountText(1)).toBe("1 comment");
  expect(commentCountText(1234)).toBe("1,234 comments");
});
