// Feed pages are keyed by the last post shown, (created_at, id): newest first, stable while new
// posts arrive. The cursor travels in the URL as `<created_at>~<id>`.
import { isUuid } from "@/lib/validation/ids";

export interface FeedCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: FeedCursor): string {
  return `${cursor.createdAt}~${cursor.id}`;
}

/** The cursor in a URL, or null for the first page (or anything that is not a cursor). */
export function decodeCursor(value: string | string[] | undefined): FeedCursor | null {
  if (typeof value !== "string") return null;
  const [createdAt, id, ...rest] = value.split("~");
  // Kept as Postgres wrote it: its microseconds matter (a Date would round them to milliseconds).
  if (
    rest.length ||
    !id ||
    !isUuid(id) ||
    !/^\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)$/.test(createdAt ?? "") ||
    Number.isNaN(Date.parse(createdAt))
  )
    return null;
  return { createdAt, id };
}

/** The PostgREST filter for "older than the cursor" in (created_at desc, id desc) order. */
export function olderThan(cursor: FeedCursor): string {
  return `created_at.lt.${cursor.createdAt},and(created_at.eq.${cursor.createdAt},id.lt.${cursor.id})`;
}
