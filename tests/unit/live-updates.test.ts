import { afterEach, describe, expect, test, vi } from "vitest";
import { deliver, isMembershipChange, isSessionRow, rowChangeOf } from "@/lib/realtime/live-updates";
import { isRoomRowChange } from "@/lib/realtime/room-channel";

afterEach(() => vi.restoreAllMocks());

const post = { id: "p1", room_id: "r1", title: "A tone" };

describe("the shapes a page relies on", () => {
  test("a room's row change: a known table and operation, rows with ids", () => {
    expect(isRoomRowChange({ table: "posts", operation: "INSERT", record: post, old_record: null })).toBe(true);
    expect(isRoomRowChange({ table: "moments", operation: "DELETE", record: null, old_record: { id: "m1", post_id: "p1" } })).toBe(true);
    for (const bad of [
      null,
      "posts",
      [],
      { table: "profiles", operation: "INSERT", record: post, old_record: null },
      { table: "posts", operation: "TRUNCATE", record: post, old_record: null },
      { table: "posts", operation: "INSERT", record: { title: "no id" }, old_record: null },
      { table: "posts", operation: "UPDATE", record: post, old_record: "old" },
      { table: "posts", operation: "DELETE", record: null, old_record: null },
    ]) {
      expect(isRoomRowChange(bad)).toBe(false);
    }
  });

  test("a queue change is a row change of session_queue only", () => {
    const isQueueChange = rowChangeOf<{ table: "session_queue" }>(["session_queue"]);
    expect(isQueueChange({ table: "session_queue", operation: "UPDATE", record: { id: "q1" }, old_record: { id: "q1" } })).toBe(true);
    expect(isQueueChange({ table: "posts", operation: "UPDATE", record: { id: "q1" }, old_record: { id: "q1" } })).toBe(false);
  });

  test("a membership change names the room and the person; a session row has an id and a room", () => {
    expect(isMembershipChange({ operation: "DELETE", room_id: "r1", user_id: "u1", role: null })).toBe(true);
    expect(isMembershipChange({ operation: "DELETE", room_id: "r1", role: null })).toBe(false);
    expect(isSessionRow({ id: "s1", room_id: "r1", host_id: null })).toBe(true);
    expect(isSessionRow({ id: 7, room_id: "r1" })).toBe(false);
  });
});

describe("deliver", () => {
  test("hands over an update that fits", () => {
    const take = vi.fn();
    deliver("posts", { table: "posts", operation: "INSERT", record: post, old_record: null }, isRoomRowChange, take);
    expect(take).toHaveBeenCalledWith({ table: "posts", operation: "INSERT", record: post, old_record: null });
  });

  test("drops and logs one that does not fit, without calling the page", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const take = vi.fn();
    deliver("posts", { table: "posts", operation: "INSERT", record: "<b>", old_record: null }, isRoomRowChange, take);
    expect(take).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith("Dropped a live posts update that does not have the expected shape", expect.anything());
  });

  test("drops and logs one the page throws on, never throwing into the socket's handler", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const failure = new TypeError("Invalid URL");
    expect(() =>
      deliver("posts", { table: "posts", operation: "INSERT", record: post, old_record: null }, isRoomRowChange, () => {
        throw failure;
      }),
    ).not.toThrow();
    expect(warn).toHaveBeenCalledWith("Dropped a live posts update this page could not show", failure);
  });
});
