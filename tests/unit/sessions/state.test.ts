// What the page keeps of what it hears: only newer versions of the session (or a newer session),
// queue changes merged by id in play order, listeners once per person with the host first.
import { describe, expect, test } from "vitest";
import { applyQueueChange, listenersOf, orderQueue, supersedes } from "@/lib/sessions/state";
import type { QueueEntry, SessionRow } from "@/lib/sessions/types";
import { listenerMeta } from "../../helpers/listeners";

const row = (over: Partial<SessionRow> = {}): SessionRow => ({
  id: "s1",
  room_id: "r1",
  started_by: "u1",
  host_id: "u1",
  host_seen_at: "2026-11-25T10:00:00Z",
  ready_check_seconds: 10,
  ready_check_each_track: false,
  mode: "host",
  track: 1,
  turn: 0,
  turn_ends_at: "1970-01-01T00:00:00Z",
  dj_waitlist: [],
  skip_votes: 0,
  skip_needed: 0,
  skip_voters: [],
  post_id: "p1",
  position_seconds: 0,
  playing: false,
  rate: 1,
  state_at: "2026-11-25T10:00:00Z",
  version: 3,
  started_at: "2026-11-25T10:00:00Z",
  ended_at: null,
  ...over,
});

describe("supersedes", () => {
  test("a later version replaces; the same or an older one does not (a late broadcast after a refetch)", () => {
    expect(supersedes(row({ version: 4 }), row())).toBe(true);
    expect(supersedes(row({ version: 3 }), row())).toBe(false);
    expect(supersedes(row({ version: 2 }), row())).toBe(false);
    expect(supersedes(row(), null)).toBe(true);
  });

  test("a new session replaces an ended one, whatever its version", () => {
    expect(supersedes(row({ id: "s2", version: 1, started_at: "2026-11-25T11:00:00Z" }), row({ ended_at: "2026-11-25T10:30:00Z" }))).toBe(
      true,
    );
    expect(supersedes(row({ id: "s0", version: 9, started_at: "2026-11-24T11:00:00Z" }), row())).toBe(false);
  });
});

const entry = (id: string, status: "queued" | "suggested", sort_key: number, created = "2026-11-25T10:00:00Z"): QueueEntry => ({
  id,
  session_id: "s1",
  room_id: "r1",
  post_id: `post-${id}`,
  added_by: "u1",
  status,
  sort_key,
  created_at: created,
});

describe("queue", () => {
  test("queued by sort key first, then suggestions oldest first", () => {
    const ordered = orderQueue([
      entry("s-new", "suggested", 9, "2026-11-25T10:05:00Z"),
      entry("b", "queued", 2),
      entry("s-old", "suggested", 1, "2026-11-25T10:01:00Z"),
      entry("a", "queued", 1),
    ]);
    expect(ordered.map((e) => e.id)).toEqual(["a", "b", "s-old", "s-new"]);
  });

  test("inserts, updates (a reorder, an accepted suggestion) and deletes merge by id", () => {
    let queue = [entry("a", "queued", 1), entry("b", "queued", 2)];
    queue = applyQueueChange(
      queue,
      { table: "session_queue", operation: "INSERT", record: entry("c", "suggested", 3), old_record: null },
      "s1",
    );
    queue = applyQueueChange(
      queue,
      { table: "session_queue", operation: "UPDATE", record: entry("b", "queued", 0.5), old_record: entry("b", "queued", 2) },
      "s1",
    );
    queue = applyQueueChange(
      queue,
      { table: "session_queue", operation: "UPDATE", record: entry("c", "queued", 4), old_record: entry("c", "suggested", 3) },
      "s1",
    );
    queue = applyQueueChange(
      queue,
      { table: "session_queue", operation: "INSERT", record: entry("c", "queued", 4), old_record: null },
      "s1",
    );
    expect(queue.map((e) => e.id)).toEqual(["b", "a", "c"]);
    queue = applyQueueChange(
      queue,
      { table: "session_queue", operation: "DELETE", record: null, old_record: entry("a", "queued", 1) },
      "s1",
    );
    expect(queue.map((e) => e.id)).toEqual(["b", "c"]);
  });

  test("another session's entries are not this one's", () => {
    expect(
      applyQueueChange(
        [],
        { table: "session_queue", operation: "INSERT", record: { ...entry("x", "queued", 1), session_id: "other" }, old_record: null },
        "s1",
      ),
    ).toEqual([]);
  });
});

const meta = (user_id: string, since: number, following = true) => listenerMeta(user_id, "member", since, following);

test("listeners: once per person, host first, then by how long they have been here; self marked", () => {
  const listeners = listenersOf([meta("b", 5), meta("a", 3), meta("host", 9), meta("b", 1, false)], "host", "a");
  expect(listeners.map((l) => [l.user_id, l.since, l.isHost, l.isSelf])).toEqual([
    ["host", 9, true, false],
    ["b", 1, false, false],
    ["a", 3, false, true],
  ]);
});
