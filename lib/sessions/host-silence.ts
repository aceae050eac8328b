// Whether the session's host has gone silent: the server sends every heartbeat of the host's page on
// the session's channel (event `host`); presence alone can be made to lie (any member can show a
// meta with the host's id), the heartbeats cannot (only the database sends them).

/** The host's page beats every 2 s: four missed beats and it is taken to be gone. */
export const hostSilentAfterMs = 8_000;

export interface HostBeat {
  session_id: string;
  host_id: string;
  seen_at: string;
}

/**
 * Silent: nothing heard from `hostId` for `hostSilentAfterMs`, counted from the last beat heard or,
 * before any, from when this page began listening for that host (`listeningSince`).
 */
export function hostSilent(
  hostId: string | null,
  lastBeat: { hostId: string; at: number } | null,
  listeningSince: number,
  now: number,
): boolean {
  if (!hostId) return false;
  const heardAt = lastBeat && lastBeat.hostId === hostId ? Math.max(lastBeat.at, listeningSince) : listeningSince;
  return now - heardAt > hostSilentAfterMs;
}

/** A `host` message's payload, when it is one (anything else on the wire is ignored). */
export function hostBeatOf(payload: unknown): HostBeat | null {
  if (!payload || typeof payload !== "object") return null;
  const p = payload as Record<string, unknown>;
  return typeof p.session_id === "string" && typeof p.host_id === "string" && typeof p.seen_at === "string"
    ? { session_id: p.session_id, host_id: p.host_id, seen_at: p.seen_at }
    : null;
}

/**
 * Looks every second whether `hostId` has gone silent, counting from now (when this page begins
 * listening for them) or from the last beat heard (`lastBeat()`), and tells `onLook`. Returns the stop.
 */
export function watchHostSilence(
  hostId: string,
  lastBeat: () => { hostId: string; at: number } | null,
  now: () => number,
  onLook: (silent: boolean) => void,
): () => void {
  const since = now();
  const timer = setInterval(() => onLook(hostSilent(hostId, lastBeat(), since, now())), 1_000);
  return () => clearInterval(timer);
}
