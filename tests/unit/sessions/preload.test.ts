// Which post is made ready ahead (the one "next" plays: the first queued entry, as the server takes
// it), and the page's media elements by post: the playing upload, then the next upload waiting.
import { describe, expect, test } from "vitest";
import { decksOf, nextQueuedPostId, nextSource, readyAtFirst, readyPostIds, readyStep } from "@/lib/sessions/preload";
import { orderQueue } from "@/lib/sessions/state";
import type { QueueEntry } from "@/lib/sessions/types";

const entry = (id: string, postId: string, status: "queued" | "suggested", sortKey: number, createdAt = "2026-11-27T08:00:00Z") =>
  ({ id, post_id: postId, status, sort_key: sortKey, created_at: createdAt, session_id: "s", added_by: "u" }) as unknown as QueueEntry;

describe("nextQueuedPostId", () => {
  test("the first queued entry in play order; suggestions never", () => {
    const queue = orderQueue([entry("a", "p3", "queued", 3), entry("b", "p9", "suggested", 0), entry("c", "p2", "queued", 1)]);
    expect(nextQueuedPostId(queue, "p1")).toBe("p2");
    expect(nextQueuedPostId([entry("b", "p9", "suggested", 0)], "p1")).toBeNull();
    expect(nextQueuedPostId([], null)).toBeNull();
  });

  test("nothing to ready when the next is the post playing now", () => {
    expect(nextQueuedPostId([entry("a", "p1", "queued", 1)], "p1")).toBeNull();
  });
});

describe("nextSource: where the next post comes from", () => {
  const queue = [entry("a", "q1", "queued", 1)];

  test("a hosted session takes the queue's next", () => {
    const source = nextSource({ mode: "host", dj_waitlist: [{ user_id: "u2", post_id: "d2" }] }, queue);
    expect(source.next("p1")).toBe("q1");
    expect(source.waiting("q1")).toBe(true);
    expect(source.waiting("d2")).toBe(false);
  });

  test("DJ turns take the first pick in the waitlist (a DJ who has not picked is passed over), never the queue", () => {
    const row = {
      mode: "dj_turns",
      dj_waitlist: [
        { user_id: "u1", post_id: null },
        { user_id: "u2", post_id: "d2" },
        { user_id: "u3", post_id: "d3" },
      ],
    };
    const source = nextSource(row, queue);
    expect(source.next("p1")).toBe("d2");
    expect(source.waiting("d3")).toBe(true);
    expect(source.waiting("q1")).toBe(false);
    expect(source.next("d2")).toBeNull();
  });

  test("DJ turns with nobody's pick waiting, or a malformed list, ready nothing", () => {
    expect(nextSource({ mode: "dj_turns", dj_waitlist: [{ user_id: "u1", post_id: null }] }, queue).next("p1")).toBeNull();
    expect(nextSource({ mode: "dj_turns", dj_waitlist: "nonsense" }, queue).next("p1")).toBeNull();
  });
});

describe("readyStep: what stays ready while a post plays", () => {
  const queued =
    (...ids: string[]) =>
    (postId: string) =>
      ids.includes(postId);

  test("the next queued post; a new post playing starts afresh", () => {
    const state = readyAtFirst("p1", "p2");
    expect(readyPostIds(state)).toEqual(["p2"]);
    expect(readyStep(state, "p1", "p2", queued("p2"))).toBe(state);
    expect(readyPostIds(readyStep(state, "p2", "p3", queued("p3")))).toEqual(["p3"]);
  });

  test("the server takes the next entry out of the queue before the session moves on: it stays ready until then", () => {
    const taken = readyStep(readyAtFirst("p1", "p2"), "p1", null, queued());
    expect(readyPostIds(taken)).toEqual(["p2"]);
    // with more queued: the one taken first (needed soonest), then the new next
    const more = readyStep(readyAtFirst("p1", "p2"), "p1", "p3", queued("p3"));
    expect(readyPostIds(more)).toEqual(["p2", "p3"]);
    // then the session plays it: it is no longer waiting
    expect(readyPostIds(readyStep(more, "p2", "p3", queued("p3")))).toEqual(["p3"]);
  });

  test("a reorder in the queue is no take: the new first is ready, the old one only while still first", () => {
    const reordered = readyStep(readyAtFirst("p1", "p2"), "p1", "p3", queued("p2", "p3"));
    expect(readyPostIds(reordered)).toEqual(["p3"]);
  });
});

describe("decksOf", () => {
  type Post = { id: string; media_kind: "embed" | "upload" };
  const upload = (id: string): Post => ({ id, media_kind: "upload" });
  const link = (id: string): Post => ({ id, media_kind: "embed" });

  test("the playing upload, then the ones waiting", () => {
    expect(decksOf(upload("a"), [upload("b"), null])).toEqual([
      { post: upload("a"), active: true },
      { post: upload("b"), active: false },
    ]);
  });

  test("after the swap the waiting one plays, first, and the one after waits behind it", () => {
    const before = decksOf(upload("a"), [upload("b")]);
    const after = decksOf(upload("b"), [upload("c")]);
    expect(after[0]).toEqual({ post: before[1].post, active: true });
    expect(after.map((deck) => deck.post.id)).toEqual(["b", "c"]);
  });

  test("links play in their provider's player: no deck for them", () => {
    expect(decksOf(link("a"), [upload("b")])).toEqual([{ post: upload("b"), active: false }]);
    expect(decksOf(upload("a"), [link("b")])).toEqual([{ post: upload("a"), active: true }]);
    expect(decksOf(null, [])).toEqual([]);
  });

  test("one deck per post", () => {
    expect(decksOf(upload("a"), [upload("a"), upload("b"), upload("b")]).map((deck) => deck.post.id)).toEqual(["a", "b"]);
  });
});
