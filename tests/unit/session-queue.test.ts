// The session's queue as the page shows it: order, suggestions, the person's own writes shown at
// once and given up when the channel says otherwise, reordering keys, refusals in words.
import { expect, test } from "vitest";
import { lastSortKey, likePattern, movedSortKey, type PendingWrite, queueView, sortKeyBetween, withPending } from "@/lib/sessions/queue";
import { queueMessages, queueWriteError } from "@/lib/sessions/queue-errors";
import type { QueueEntry } from "@/lib/sessions/types";

let serial = 0;
function entry(post: string, status: "queued" | "suggested", sortKey: number, extra: Partial<QueueEntry> = {}): QueueEntry {
  serial++;
  return {
    id: `id-${post}`,
    session_id: "s",
    room_id: "r",
    post_id: post,
    added_by: "host",
    status,
    sort_key: sortKey,
    created_at: `2026-11-24T00:00:${String(serial).padStart(2, "0")}Z`,
    ...extra,
  };
}

test("queued entries in sort-key order, suggestions oldest first, the playing post in neither", () => {
  const entries = [
    entry("c", "queued", 2),
    entry("s2", "suggested", 0),
    entry("a", "queued", -1),
    entry("s1", "suggested", 0, { created_at: "2026-11-23T00:00:00Z" }),
    entry("playing", "queued", 0),
  ];
  const view = queueView(entries, "playing");
  expect(view.queued.map((e) => e.post_id)).toEqual(["a", "c"]);
  expect(view.suggested.map((e) => e.post_id)).toEqual(["s1", "s2"]);
});

test("own writes show at once, and give way once the channel agrees, or when they expire", () => {
  const a = entry("a", "queued", 0);
  const b = entry("b", "suggested", 0);
  const writes: PendingWrite[] = [
    { id: a.id, entry: { ...a, sort_key: 3 }, expiresAt: 1000 },
    { id: b.id, entry: null, expiresAt: 1000 },
  ];
  const before = withPending([a, b], writes, 0);
  expect(before.entries).toEqual([{ ...a, sort_key: 3 }]);
  expect(before.pending).toHaveLength(2);

  // The channel now has the move and the delete: nothing is pending any more.
  const after = withPending([{ ...a, sort_key: 3 }], writes, 0);
  expect(after.pending).toEqual([]);
  // A later move by someone else is what shows, not this page's old write.
  expect(withPending([{ ...a, sort_key: 9 }], after.pending, 0).entries[0].sort_key).toBe(9);

  // Expired: the channel's view wins whatever it says.
  expect(withPending([a, b], writes, 1000)).toEqual({ entries: [a, b], pending: [] });
});

test("sort keys between neighbours, at the ends, and in an empty queue", () => {
  expect(sortKeyBetween(null, null)).toBe(0);
  expect(sortKeyBetween(null, 4)).toBe(3);
  expect(sortKeyBetween(4, null)).toBe(5);
  expect(sortKeyBetween(1, 2)).toBe(1.5);
  expect(lastSortKey([])).toBe(0);
  expect(lastSortKey([entry("a", "queued", 7)])).toBe(8);
});

test("moving up and down lands between the new neighbours; the ends cannot move further", () => {
  const queued = [entry("a", "queued", 0), entry("b", "queued", 1), entry("c", "queued", 2)];
  const up = movedSortKey(queued, "id-c", -1)!;
  expect(up).toBeGreaterThan(0);
  expect(up).toBeLessThan(1);
  const down = movedSortKey(queued, "id-a", 1)!;
  expect(down).toBeGreaterThan(1);
  expect(down).toBeLessThan(2);
  expect(movedSortKey(queued, "id-a", -1)).toBeNull();
  expect(movedSortKey(queued, "id-c", 1)).toBeNull();
  expect(movedSortKey(queued, "id-b", -1)).toBe(-1);
  expect(movedSortKey(queued, "id-b", 1)).toBe(3);
  expect(movedSortKey(queued, "missing", 1)).toBeNull();

  // Applying the moves gives the order asked for.
  const moved = queueView(queued.map((e) => (e.id === "id-c" ? { ...e, sort_key: up } : e))).queued.map((e) => e.post_id);
  expect(moved).toEqual(["a", "c", "b"]);
});

test("keys too close to split are refused rather than written unchanged", () => {
  const close = [entry("a", "queued", 1), entry("b", "queued", 1 + Number.EPSILON), entry("c", "queued", 2)];
  expect(movedSortKey(close, "id-c", -1)).toBeNull();
});

test("title searches match % and _ literally", () => {
  expect(likePattern("  100%_sure ")).toBe("%100\\%\\_sure%");
});

test("refusals in words: the constraints' own words, the session's state, policies", () => {
  expect(
    queueWriteError({ code: "23505", message: 'duplicate key value violates unique constraint "session_queue_one_per_post"' }, "add"),
  ).toBe("That post is already in the queue");
  expect(queueWriteError({ code: "23514", message: "You can suggest up to 10 posts at a time" }, "add")).toBe(
    "You can suggest up to 10 posts at a time",
  );
  expect(queueWriteError({ code: "23514", message: "The queue holds up to 200 posts" }, "add")).toBe("The queue holds up to 200 posts");
  expect(queueWriteError({ code: "PT409", message: "This session has ended" }, "add")).toBe(queueMessages.sessionEnded);
  expect(queueWriteError({ code: "23503", message: "That post isn't in this room" }, "add")).toBe(queueMessages.postNotInRoom);
  expect(queueWriteError({ code: "42501", message: 'new row violates row-level security policy for table "session_queue"' }, "add")).toBe(
    queueMessages.membersOnly,
  );
  expect(queueWriteError({ code: "42501", message: "permission denied for table session_queue" }, "order")).toBe(
    queueMessages.onlyHostOrders,
  );
  expect(queueWriteError({ code: "XX000", message: "internal error" }, "remove")).toBe(queueMessages.failed);
});
