// The bell's words, apart from the list's code: the header (every page) loads only these.
/** The bell's number: "9+" past nine. */
export function unreadBadge(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > 9 ? "9+" : String(Math.floor(count));
}

/** The bell's accessible name: "Notifications, 3 unread". */
export function bellLabel(count: number | null): string {
  return count && count > 0 ? `Notifications, ${count.toLocaleString("en")} unread` : "Notifications";
}
