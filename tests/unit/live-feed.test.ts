// The room feed while changes arrive live: the server's page, then inserts, edits and deletes from
// the room's channel and what a resync fetched after a gap, merged by id — nothing twice, nothing
// deleted coming back, feed order kept, an older version never over a newer one.
import { describe, expect, test } from "vitest";
import { feedReducer, initialFeed, postFromRow, unknownAuthors, withAuthor, type FeedState } from "@/lib/posts/live-feed";
import type { Post } from "@/lib/posts/queries";
import type { Tables } from "@/types/database";

const author = { username: "ada", display_name: "Ada", avatar_path: null };

function post(n: number, over: Partial<Post> = {}): Post {
  const at = new Date(Date.UTC(2026, 10, 23, 20, 0, n)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    room_id: "room",
    author_id: "author-1",
    title: `Post ${n}`,
    body: "",
    media_kind: "embed",
    media_url: "https://example.com/a.mp3",
    storage_path: null,
    embed: null,
    duration_seconds: null,
    created_at: at,
    updated_at: at,
    author,
    activity: { comment_count: 0, last_activity_at: at },
    ...over,
  };
}

const titles = (state: FeedState) => state.posts.map((p) => p.title);
const run = (state: FeedState, ...actions: Parameters<typeof feedReducer>[1][]) => actions.reduce(feedReducer, state);

describe("live feed", () => {
  test("a new post joins the first page in feed order, once, however often it arrives", () => {
    const start = initialFeed([post(3), post(1)], true);
    const next = run(start, { type: "upsert", post: post(2) }, { type: "upsert", post: post(4) }, { type: "upsert", post: post(4) });
    expect(titles(next)).toEqual(["Post 4", "Post 3", "Post 2", "Post 1"]);
  });

  test("older pages only change what they show: edits and deletes, not new posts", () => {
    const start = initialFeed([post(3), post(1)], false);
    const next = run(
      start,
      { type: "upsert", post: post(9) },
      { type: "upsert", post: post(3, { title: "Renamed", updated_at: post(10).updated_at }) },
      { type: "remove", id: post(1).id },
    );
    expect(titles(next)).toEqual(["Renamed"]);
  });

  test("an edit replaces the post and keeps its author; an older copy never wins over a newer one", () => {
    const edited = post(1, { title: "Edited", updated_at: post(20).updated_at, author: null });
    const next = run(initialFeed([post(1)], true), { type: "upsert", post: edited }, { type: "upsert", post: post(1) });
    expect(next.posts).toEqual([{ ...edited, author }]);
  });

  test("a deleted post disappears and a late or stale copy of it does not bring it back", () => {
    const next = run(
      initialFeed([post(2), post(1)], true),
      { type: "remove", id: post(2).id },
      { type: "upsert", post: post(2) },
      { type: "snapshot", posts: [post(2), post(1)] },
      { type: "resync", shown: [post(1).id], found: [post(1)], fresh: [post(2), post(1)] },
    );
    expect(titles(next)).toEqual(["Post 1"]);
  });

  test("a resync adds what was missed, applies edits, and drops shown posts that no longer exist — nothing twice", () => {
    const start = run(initialFeed([post(3), post(2), post(1)], true), { type: "upsert", post: post(4) });
    const next = run(start, {
      type: "resync",
      shown: [post(4).id, post(3).id, post(2).id, post(1).id],
      found: [post(4), post(3, { title: "Three, edited", updated_at: post(30).updated_at }), post(1)],
      fresh: [post(6), post(5), post(4), post(3, { title: "Three, edited", updated_at: post(30).updated_at })],
    });
    expect(titles(next)).toEqual(["Post 6", "Post 5", "Post 4", "Three, edited", "Post 1"]);
    expect(new Set(next.posts.map((p) => p.id)).size).toBe(next.posts.length);
  });

  test("a server snapshot keeps posts that arrived after it and removes ones deleted within its window", () => {
    const start = run(initialFeed([post(3), post(2), post(1)], true), { type: "upsert", post: post(5) });
    const next = feedReducer(start, { type: "snapshot", posts: [post(4), post(3), post(1)] });
    expect(titles(next)).toEqual(["Post 5", "Post 4", "Post 3", "Post 1"]);
  });

  test("ties on created_at are ordered by id, as the server pages them", () => {
    const a = post(1, { id: "00000000-0000-4000-8000-00000000000a", title: "a" });
    const b = post(1, { id: "00000000-0000-4000-8000-00000000000b", title: "b" });
    expect(titles(run(initialFeed([a], true), { type: "upsert", post: b }))).toEqual(["b", "a"]);
  });

  test("a broadcast row becomes a post without an author; unknown authors are asked for once, then shown", () => {
    const row = { ...post(7), embed: { provider: "youtube", title: "x" }, author: undefined } as unknown as Tables<"posts">;
    const arrived = postFromRow(row);
    expect(arrived.author).toBeNull();
    const state = run(initialFeed([post(1)], true), { type: "upsert", post: { ...arrived, author_id: "author-2" } });
    expect(unknownAuthors(state, new Set())).toEqual(["author-2"]);
    expect(unknownAuthors(state, new Set(["author-2"]))).toEqual([]);
    const known = feedReducer(state, {
      type: "authors",
      authors: { "author-2": { username: "bo", display_name: "Bo", avatar_path: null } },
    });
    expect(withAuthor(known.posts[0], known.authors).author?.display_name).toBe("Bo");
    expect(unknownAuthors(known, new Set())).toEqual([]);
  });
});

describe("comment counts", () => {
  const later = (seconds: number) => new Date(Date.UTC(2026, 10, 23, 21, 0, seconds)).toISOString();
  const comment = (id: string, added: boolean, createdAt: string | null = later(1)) =>
    ({ type: "comment", postId: post(1).id, commentId: id, createdAt, added }) as const;

  test("a new comment counts once, however often it is heard, and moves the last activity", () => {
    let state = initialFeed([post(1), post(2)], true);
    state = feedReducer(state, comment("c1", true));
    state = feedReducer(state, comment("c1", true));
    expect(state.posts.find((p) => p.id === post(1).id)?.activity).toEqual({ comment_count: 1, last_activity_at: later(1) });
    expect(state.posts.find((p) => p.id === post(2).id)?.activity?.comment_count).toBe(0);
  });

  test("a comment the server's count already holds is not counted again", () => {
    const counted = post(1, { activity: { comment_count: 4, last_activity_at: later(5) } });
    const state = feedReducer(initialFeed([counted], true), comment("old", true, later(3)));
    expect(state.posts[0]?.activity?.comment_count).toBe(4);
  });

  test("a deleted comment counts out once, never below zero", () => {
    let state = initialFeed([post(1, { activity: { comment_count: 1, last_activity_at: later(0) } })], true);
    state = feedReducer(state, comment("c1", false, null));
    state = feedReducer(state, comment("c1", false, null));
    state = feedReducer(state, comment("c2", false, null));
    expect(state.posts[0]?.activity?.comment_count).toBe(0);
  });

  test("a comment on a post not shown changes nothing", () => {
    const state = initialFeed([post(2)], true);
    expect(feedReducer(state, comment("c1", true))).toBe(state);
  });

  test("an edit from the channel (no activity) keeps the count shown", () => {
    let state = feedReducer(initialFeed([post(1)], true), comment("c1", true));
    const edited = { ...post(1, { title: "Edited", updated_at: later(9) }), activity: null };
    state = feedReducer(state, { type: "upsert", post: edited });
    expect(state.posts[0]).toMatchObject({ title: "Edited", activity: { comment_count: 1 } });
  });
});
