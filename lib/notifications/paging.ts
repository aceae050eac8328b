import type { NotificationItem } from "./types";

/** How many notifications a page shows at a time. */
export const notificationsPageSize = 20;

/** Where the next (older) page starts: the last one shown, by (created_at, id), as `my_notifications` takes it. */
export interface NotificationsCursor {
  before_created: string;
  before_id: string;
}

/** The cursor for the page after `page`, or null when it was the last (shorter than a full page). */
export function nextCursor(page: readonly NotificationItem[], pageSize = notificationsPageSize): NotificationsCursor | null {
  const last = page.at(-1);
  if (!last || page.length < pageSize) return null;
  return { before_created: last.createdAt, before_id: last.id };
}

/** Newest first by (created_at, id), as the database orders them. */
function newerFirst(a: NotificationItem, b: NotificationItem): number {
  const at = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  // Postgres keeps microseconds a Date drops: the strings (written alike by one server) decide then.
  if (at !== 0 && Number.isFinite(at)) return at;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * What is shown, with a page read since merged in by id: a notification read again replaces the
 * one shown (it may have been read, or a reaction may have grown), a new one takes its place by time,
 * and nothing shown is dropped.
 */
export function mergeNotifications(shown: readonly NotificationItem[], read: readonly NotificationItem[]): NotificationItem[] {
  const byId = new Map(shown.map((item) => [item.id, item]));
  for (const item of read) byId.set(item.id, item);
  return [...byId.values()].sort(newerFirst);
}

/** The ids in `after` that `before` did not have (what just arrived). */
export function arrivedIds(before: readonly NotificationItem[], after: readonly NotificationItem[]): string[] {
  const known = new Set(before.map((item) => item.id));
  return after.filter((item) => !known.has(item.id)).map((item) => item.id);
}

/** Everything shown, marked read at `at` (after "Mark all read"). */
export function markedRead(shown: readonly NotificationItem[], ids: readonly string[] | null, at: string): NotificationItem[] {
  const only = ids ? new Set(ids) : null;
  return shown.map((item) => (item.readAt || (only && !only.has(item.id)) ? item : { ...item, readAt: at }));
}
