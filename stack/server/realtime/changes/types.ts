import type { Claims } from "../../jwt.ts";

/** One `postgres_changes` entry of a join's config, as the client sent it. */
export type ChangeParams = Record<string, unknown> & { event?: unknown; schema?: unknown; table?: unknown; filter?: unknown };

export interface ChangeBinding {
  /** The id the client matches incoming events with (from the join reply). */
  id: number;
  params: ChangeParams;
}

/** The channel side of a postgres_changes subscription: where matching changes go. */
export interface ChangeSubscriber {
  readonly topic: string;
  /** Sends one change; `dataJson` is the `data` object, already JSON. */
  deliverChange(ids: number[], dataJson: string): void;
}

/** `retry`: the database was unreachable, so the channel tries again (as Realtime re-subscribes with backoff). */
export type SubscribeResult = { ok: true } | { ok: false; message: string; retry: boolean };

export interface ChangesFeed {
  subscribe(subscriber: ChangeSubscriber, bindings: ChangeBinding[], claims: Claims): Promise<SubscribeResult>;
  updateClaims(subscriber: ChangeSubscriber, claims: Claims): void;
  unsubscribe(subscriber: ChangeSubscriber): void;
  /** Resolves true once the replication stream runs, false if it does not within `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean>;
}
