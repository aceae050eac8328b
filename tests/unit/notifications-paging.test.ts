// Paging the notifications by cursor, merging what the live channel brings, and the bell's words.
import { expect, test } from "vitest";
import { bellLabel, unreadBadge } from "@/lib/notifications/bell";
import { arrivedIds, markedRead, mergeNotifications, nextCursor } from "@/lib/notifications/paging";
import type { NotificationItem } from "@/lib/notifications/types";
import { commentHref } from "@/lib/notifications/moment-link";

function item(id: string, createdAt: string, readAt: string | null = null): NotificationItem {
  return {
    id,
    kind: "reply",
    createdAt,
    readAt,
    held: false,
    data: {},
    actor: null,
    room: null,
    postId: null,
    postTitle: null,
    momentId: null,
    parentId: null,
    atSeconds: null,
    excerpt: null,
    people: null,
  };
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

test("the next page starts after the last one shown, and a short page is the last", () => {
  const page = [item(uuid(3), "2026-11-27T10:00:03.000002+00:00"), item(uuid(2), "2026-11-27T10:00:02.000001+00:00")];
  expect(nextCursor(page, 2)).toEqual({ before_created: "2026-11-27T10:00:02.000001+00:00", before_id: uuid(2) });
  expect(nextCursor(page, 3)).toBeNull();
  expect(nextCursor([], 2)).toBeNull();
});

test("merging keeps what is shown, adds new ones at the top and replaces re-read ones by id", () => {
  const shown = [item(uuid(2), "2026-11-27T10:00:02+00:00"), item(uuid(1), "2026-11-27T10:00:01+00:00")];
  const reread = [item(uuid(3), "2026-11-27T10:00:03+00:00"), item(uuid(2), "2026-11-27T10:00:02+00:00", "2026-11-27T10:05:00+00:00")];
  const merged = mergeNotifications(shown, reread);
  expect(merged.map((n) => n.id)).toEqual([uuid(3), uuid(2), uuid(1)]);
  expect(merged[1].readAt).toBe("2026-11-27T10:05:00+00:00");
  expect(arrivedIds(shown, merged)).toEqual([uuid(3)]);
});

test("order is by time to the microsecond, then by id", () => {
  const merged = mergeNotifications(
    [item(uuid(1), "2026-11-27T10:00:00.000001+00:00"), item(uuid(2), "2026-11-27T10:00:00.000001+00:00")],
    [item(uuid(3), "2026-11-27T10:00:00.000002+00:00")],
  );
  expect(merged.map((n) => n.id)).toEqual([uuid(3), uuid(2), uuid(1)]);
});

test("older pages go below; a reaction regrouped later moves up", () => {
  const first = [item(uuid(4), "2026-11-27T10:00:04+00:00"), item(uuid(3), "2026-11-27T10:00:03+00:00")];
  const older = [item(uuid(2), "2026-11-27T10:00:02+00:00"), item(uuid(1), "2026-11-27T10:00:01+00:00")];
  const all = mergeNotifications(first, older);
  expect(all.map((n) => n.id)).toEqual([uuid(4), uuid(3), uuid(2), uuid(1)]);
  expect(mergeNotifications(all, [item(uuid(1), "2026-11-27T10:00:05+00:00")]).map((n) => n.id)).toEqual([
    uuid(1),
    uuid(4),
    uuid(3),
    uuid(2),
  ]);
});

test("marking read: all, or only the given ones; read ones keep their time", () => {
  const shown = [item(uuid(2), "2026-11-27T10:00:02+00:00"), item(uuid(1), "2026-11-27T10:00:01+00:00", "2026-11-27T09:00:00+00:00")];
  expect(markedRead(shown, null, "now").map((n) => n.readAt)).toEqual(["now", "2026-11-27T09:00:00+00:00"]);
  expect(markedRead(shown, [uuid(1)], "now").map((n) => n.readAt)).toEqual([null, "2026-11-27T09:00:00+00:00"]);
});

test("the bell: a capped badge and a spoken count", () => {
  expect(unreadBadge(0)).toBeNull();
  expect(unreadBadge(3)).toBe("3");
  expect(unreadBadge(9)).toBe("9");
  expect(unreadBadge(10)).toBe("9+");
  expect(bellLabel(null)).toBe("Notifications");
  expect(bellLabel(0)).toBe("Notifications");
  expect(bellLabel(3)).toBe("Notifications, 3 unread");
  expect(bellLabel(1200)).toBe("Notifications, 1,200 unread");
});

test("a comment's address: its post at the whole second, the comment picked out", () => {
  expect(commentHref("synths", uuid(1), uuid(2), 12.7)).toBe(`/r/synths/p/${uuid(1)}?t=12&comment=${uuid(2)}`);
  expect(commentHref("synths", uuid(1), uuid(2), null)).toBe(`/r/synths/p/${uuid(1)}?comment=${uuid(2)}`);
  expect(commentHref("synths", uuid(1), uuid(2), 0)).toBe(`/r/synths/p/${uuid(1)}?t=0&comment=${uuid(2)}`);
});
