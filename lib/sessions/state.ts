import type { Listener, ListenerMeta, QueueChange, QueueEntry, SessionRow } from "./types";

/** How the page merges what it hears (broadcasts, REST after a gap, RPC answers) into what it shows. */

/** Whether `row` supersedes `current`: a later version of the same session, or another (newer) session. */
export function supersedes(row: SessionRow, current: SessionRow | null): boolean {
  if (!current) return true;
  if (row.id !== current.id) return current.ended_at !== null || Date.parse(row.started_at) >= Date.parse(current.started_at);
  return row.version > current.version;
}

/** Queued entries by sort key, then suggestions by age. */
export function orderQueue(entries: QueueEntry[]): QueueEntry[] {
  return [...entries].sort((a, b) =>
    a.status === b.status
      ? (a.status === "queued" ? a.sort_key - b.sort_key : 0) || a.created_at.localeCompare(b.created_at)
      : a.status === "queued"
        ? -1
        : 1,
  );
}

export function applyQueueChange(entries: QueueEntry[], change: QueueChange, sessionId: string | null): QueueEntry[] {
  const old = change.old_record;
  const record = change.record;
  const without = entries.filter((entry) => entry.id !== (record?.id ?? old?.id));
  if (change.operation === "DELETE" || !record || record.session_id !== sessionId) return without;
  return orderQueue([...without, record]);
}

/** One listener per person (their earliest tab), host first, then by how long they have been here. */
export function listenersOf(metas: ListenerMeta[], hostId: string | null, selfId: string): Listener[] {
  const people = new Map<string, ListenerMeta>();
  for (const meta of metas) {
    const seen = people.get(meta.user_id);
    if (!seen || meta.since < seen.since)
      people.set(meta.user_id, { ...meta, following: seen ? seen.following || meta.following : meta.following });
  }
  return [...people.values()]
    .map((meta) => ({ ...meta, isHost: meta.user_id === hostId, isSelf: meta.user_id === selfId }))
    .sort((a, b) => Number(b.isHost) - Number(a.isHost) || a.since - b.since || a.user_id.localeCompare(b.user_id));
}
