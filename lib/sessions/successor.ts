import type { ListenerMeta } from "./types";

/**
 * Who takes the host's place when the host leaves: the longest-present moderator or owner, else
 * the longest-present member (by ListenerMeta.since; ties by user id, so every page agrees). The
 * successor claims at once; the others try later, one after another, only if still nobody hosts.
 */

const leads = (meta: ListenerMeta) => meta.role === "owner" || meta.role === "moderator";

/** Everyone but the leaving host, once each (a person's earliest tab), in the order they would take over. */
export function successionOrder(listeners: readonly ListenerMeta[], hostId: string | null): ListenerMeta[] {
  const earliest = new Map<string, ListenerMeta>();
  for (const meta of listeners) {
    if (!meta || typeof meta.user_id !== "string" || meta.user_id === hostId) continue;
    const seen = earliest.get(meta.user_id);
    if (!seen || since(meta) < since(seen)) earliest.set(meta.user_id, meta);
  }
  return [...earliest.values()].sort(
    (a, b) => Number(leads(b)) - Number(leads(a)) || since(a) - since(b) || (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0),
  );
}

const since = (meta: ListenerMeta) => (Number.isFinite(meta.since) ? meta.since : Number.MAX_SAFE_INTEGER);

export function successorOf(listeners: readonly ListenerMeta[], hostId: string | null): string | null {
  return successionOrder(listeners, hostId)[0]?.user_id ?? null;
}

/** The server lets a member take over once the host has been quiet this long (private.host_quiet_after()). */
export const hostQuietMs = 5_000;
/** Between one fallback candidate's turn and the next's. */
export const fallbackStepMs = 2_000;

/**
 * How long `selfId` waits after the host left before claiming: the successor at once (and again
 * until the server's quiet window has passed, when the host's page could not say it was leaving);
 * the others only after that window and the successor's chance, a step apart, so the successor
 * always gets there first. Null when not among the listeners.
 */
export function claimDelayMs(listeners: readonly ListenerMeta[], hostId: string | null, selfId: string): number | null {
  const place = successionOrder(listeners, hostId).findIndex((meta) => meta.user_id === selfId);
  if (place < 0) return null;
  return place === 0 ? 0 : hostQuietMs + place * fallbackStepMs;
}
