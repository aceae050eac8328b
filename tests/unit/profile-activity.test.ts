// A profile's list of posts and comments: rows as items, where each leads, and paging by cursor.
import { expect, test } from "vitest";
import {
  activityHref,
  activityItem,
  activityPageSize,
  appendActivity,
  nextActivityCursor,
  type ActivityItem,
} from "@/lib/profiles/activity";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

type RowExtra = Partial<{
  body: string | null;
  at_seconds: number | null;
  is_reply: boolean;
  media_kind: string | null;
  embed: unknown;
  duration_seconds: number | null;
  comment_count: number | null;
}>;

function row(kind: string, n: number, extra: RowExtra = {}) {
  return {
    kind,
    id: uuid(n),
    created_at: `2026-11-27T05:${String(59 - n).padStart(2, "0")}:00.123456+00:00`,
    room_slug: "late-night",
    room_name: "Late Night",
    post_id: uuid(900),
    post_title: "Modular set",
    body: null as unknown as string,
    at_seconds: null as unknown as number,
    is_reply: false,
    media_kind: kind === "post" ? "embed" : null,
    embed: null,
    duration_seconds: null,
    comment_count: kind === "post" ? 0 : null,
    ...extra,
  } as Parameters<typeof activityItem>[0];
}

const page = (from: number, count: number): ActivityItem[] =>
  Array.from({ length: count }, (_, i) => activityItem(row("post", from + i))).filter((item) => item !== null);

test("a post row is a post of its room, leading to the post's page", () => {
  const item = activityItem(row("post", 1));
  expect(item).toEqual({
    kind: "post",
    id: uuid(1),
    createdAt: "2026-11-27T05:58:00.123456+00:00",
    room: { slug: "late-night", name: "Late Night" },
    post: { id: uuid(900), title: "Modular set" },
    thumbnailUrl: null,
    upload: false,
    durationSeconds: null,
    commentCount: 0,
  });
  expect(activityHref(item!)).toBe(`/r/late-night/p/${uuid(900)}`);
});

test("a post shows its link's thumbnail only from well-formed stored details, its length and its comments", () => {
  const linked = activityItem(
    row("post", 6, {
      embed: { provider: "vimeo", thumbnail_url: "https://i.vimeocdn.com/video/1.jpg" },
      duration_seconds: 240.5,
      comment_count: 3,
    }),
  );
  expect(linked).toMatchObject({
    thumbnailUrl: "https://i.vimeocdn.com/video/1.jpg",
    durationSeconds: 240.5,
    commentCount: 3,
    upload: false,
  });
  // Postgres numerics may arrive as strings.
  expect(activityItem(row("post", 7, { duration_seconds: "12.000" as unknown as number }))).toMatchObject({ durationSeconds: 12 });
  expect(activityItem(row("post", 8, { embed: { provider: "vimeo", thumbnail_url: "javascript:alert(1)" } }))).toMatchObject({
    thumbnailUrl: null,
  });
  expect(activityItem(row("post", 9, { embed: "<iframe>" }))).toMatchObject({ thumbnailUrl: null });
  expect(activityItem(row("post", 10, { media_kind: "upload" }))).toMatchObject({ upload: true, thumbnailUrl: null });
});

test("a comment row keeps its words, its time and whether it answers another, and leads to its own address", () => {
  const timed = activityItem(row("comment", 2, { body: "the filter opens here", at_seconds: 102.4 }));
  expect(timed).toMatchObject({ kind: "comment", body: "the filter opens here", atSeconds: 102.4, isReply: false });
  expect(activityHref(timed!)).toBe(`/m/${uuid(2)}`);
  const reply = activityItem(row("comment", 3, { body: "yes!", at_seconds: null, is_reply: true }));
  expect(reply).toMatchObject({ kind: "comment", atSeconds: null, isReply: true });
  expect(activityItem(row("comment", 4, { at_seconds: Number.NaN }))).toMatchObject({ atSeconds: null, body: "" });
});

test("a row of a kind the page does not know is left out", () => {
  expect(activityItem(row("reaction", 5))).toBeNull();
});

test("the next page starts after the last item shown, keeping Postgres's microseconds", () => {
  const full = page(0, activityPageSize);
  expect(nextActivityCursor(full)).toEqual({ before_created: full.at(-1)!.createdAt, before_id: full.at(-1)!.id });
  expect(nextActivityCursor(full)!.before_created).toMatch(/\.123456\+00:00$/);
});

test("a short page, or none, is the last", () => {
  expect(nextActivityCursor(page(0, activityPageSize - 1))).toBeNull();
  expect(nextActivityCursor([])).toBeNull();
  expect(nextActivityCursor(page(0, 3), 3)).not.toBeNull();
});

test("an older page is added below what is shown, each item once", () => {
  const shown = page(0, 3);
  const older = page(2, 3);
  const merged = appendActivity(shown, older);
  expect(merged.map((item) => item.id)).toEqual([uuid(0), uuid(1), uuid(2), uuid(3), uuid(4)]);
  expect(merged[2]).toBe(shown[2]);
  expect(appendActivity(shown, [])).toEqual(shown);
});
