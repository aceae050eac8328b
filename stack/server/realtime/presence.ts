import { randomBytes } from "node:crypto";

/**
 * Phoenix Presence for one server: who is tracked on which topic, under which key, with which
 * metas. Each channel tracks at most one entry per topic (its presence key), as Realtime does.
 */
export type Meta = Record<string, unknown> & { phx_ref: string };
export type PresenceMap = Record<string, { metas: Meta[] }>;
export interface PresenceDiff {
  joins: PresenceMap;
  leaves: PresenceMap;
}

interface Entry {
  owner: object;
  key: string;
  meta: Meta;
}

function newRef(): string {
  return randomBytes(9).toString("base64");
}

function group(entries: Entry[]): PresenceMap {
  const map: PresenceMap = {};
  for (const { key, meta } of entries) (map[key] ??= { metas: [] }).metas.push(meta);
  return map;
}

export class PresenceStore {
  private readonly topics = new Map<string, Entry[]>();

  list(topic: string): PresenceMap {
    return group(this.topics.get(topic) ?? []);
  }

  /** Tracks (or updates) the owner's entry; returns the diff to fan out. */
  track(topic: string, owner: object, key: string, payload: Record<string, unknown>): PresenceDiff {
    const entries = this.topics.get(topic) ?? [];
    this.topics.set(topic, entries);
    const existing = entries.find((e) => e.owner === owner);
    const meta: Meta = { ...payload, phx_ref: newRef() };
    if (existing) {
      meta.phx_ref_prev = existing.meta.phx_ref;
      const left = existing.meta;
      existing.meta = meta;
      existing.key = key;
      return { joins: group([{ owner, key, meta }]), leaves: group([{ owner, key, meta: left }]) };
    }
    entries.push({ owner, key, meta });
    return { joins: group([{ owner, key, meta }]), leaves: {} };
  }

  /** Removes the owner's entry; undefined when it had none. */
  untrack(topic: string, owner: object): PresenceDiff | undefined {
    const entries = this.topics.get(topic);
    const index = entries?.findIndex((e) => e.owner === owner) ?? -1;
    if (!entries || index < 0) return undefined;
    const [removed] = entries.splice(index, 1);
    if (entries.length === 0) this.topics.delete(topic);
    return { joins: {}, leaves: group([removed]) };
  }
}
