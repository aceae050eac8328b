/**
 * The page's one unread count (the bell, and the notifications page when it marks some read): a
 * plain store, read with useSyncExternalStore. It is seeded by the server's render and kept current
 * by the live channel (./live-count.ts, loaded after first paint).
 */
let count: number | null = null;
let seededWith: number | null | undefined;
const listeners = new Set<() => void>();

function set(next: number | null): void {
  if (next === count) return;
  count = next;
  for (const listener of [...listeners]) listener();
}

export const unreadCount = {
  get: (): number | null => count,
  /** What the server rendered: taken when it is a new render's number, so a live value is not undone by the same old one. */
  seed(rendered: number | null): void {
    if (rendered === seededWith) return;
    seededWith = rendered;
    set(rendered);
  },
  set,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
