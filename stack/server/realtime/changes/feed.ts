import pg from "pg";
import type { StackConfig } from "../../../lib/config.ts";
import { dbPassword } from "../../../lib/postgres.ts";
import type { Claims } from "../../jwt.ts";
import { passes } from "./filters.ts";
import { type Change, changeData, rowOf } from "./payload.ts";
import type { PgOutputMessage } from "./pgoutput.ts";
import { Relations } from "./relations.ts";
import { type ReplicationStream, startReplication } from "./replication.ts";
import { type ResolvedBinding, publication, resolveBindings } from "./subscriptions.ts";
import type { ChangeBinding, ChangeSubscriber, ChangesFeed, SubscribeResult } from "./types.ts";
import { Visibility, type VisibilityGroup } from "./visibility.ts";

interface Subscription {
  claims: Claims;
  role: string;
  claimsKey: string;
  bindings: ResolvedBinding[];
}

type Transaction = { commitTime: Date; xid: number; messages: PgOutputMessage[] };

/** Postgres-connection failures worth retrying (as opposed to bad subscription params). */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  if (!code) return !/Subscription insert failed|Error parsing|No subscription params/.test((error as Error).message ?? "");
  return code.startsWith("E") || code.startsWith("08") || code === "57P01" || code === "57P03";
}

export interface ClosableChangesFeed extends ChangesFeed {
  close(): Promise<void>;
}

/**
 * postgres_changes: the replication stream of the supabase_realtime publication, matched against
 * the subscribed channels' bindings and filters, checked against RLS per (role, claims) group,
 * and delivered in commit order in Realtime's payload shape.
 */
export function createChangesFeed(config: StackConfig, log: (line: string) => void): ClosableChangesFeed {
  const connection = { host: "127.0.0.1", port: config.dbPort, database: "postgres", password: dbPassword };
  const pool = new pg.Pool({ ...connection, user: "postgres", max: 3, connectionTimeoutMillis: 5000 });
  pool.on("error", () => undefined);
  const relations = new Relations(pool);
  const visibility = new Visibility({ ...connection, user: "authenticator", connectionTimeoutMillis: 5000 });
  const subscriptions = new Map<ChangeSubscriber, Subscription>();
  const pending: Transaction[] = [];
  let current: Transaction | undefined;
  let stream: ReplicationStream | undefined;
  let processing = false;
  let closed = false;
  let downSince: number | undefined;
  let ready: Promise<void>;
  let markReady: () => void = () => undefined;
  const resetReady = () => {
    ready = new Promise((resolve) => (markReady = resolve));
  };
  resetReady();

  async function connect(): Promise<void> {
    while (!closed) {
      try {
        stream = await startReplication({
          host: connection.host,
          port: connection.port,
          user: "postgres",
          password: dbPassword,
          publication,
          onMessage: onMessage,
          onEnd: (error) => {
            stream = undefined;
            current = undefined;
            if (closed) return;
            resetReady();
            downSince = Date.now();
            log(`[realtime] lost the replication stream (${error.message}); reconnecting until the database is back`);
            setTimeout(() => void connect(), 250);
          },
        });
        if (downSince !== undefined)
          log(`[realtime] replication stream is back after ${((Date.now() - downSince) / 1000).toFixed(1)} s; postgres_changes flow again`);
        downSince = undefined;
        markReady();
        return;
      } catch (error) {
        if (downSince === undefined) {
          downSince = Date.now();
          log(`[realtime] cannot start the replication stream (${(error as Error).message}); retrying`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  void connect();

  function onMessage(message: PgOutputMessage): void {
    if (message.tag === "begin") current = { commitTime: message.commitTime, xid: message.xid, messages: [] };
    else if (message.tag === "commit") {
      if (current && current.messages.length > 0) pending.push(current);
      current = undefined;
      void drain();
    } else if (message.tag !== "other") current?.messages.push(message);
  }

  async function drain(): Promise<void> {
    if (processing) return;
    processing = true;
    try {
      while (pending.length > 0 && !closed) {
        const batch = pending.splice(0, pending.length);
        try {
          await deliverBatch(batch);
        } catch (error) {
          log(`[realtime] could not deliver a batch of changes: ${(error as Error).message}`);
        }
      }
    } finally {
      processing = false;
    }
  }

  async function toChanges(batch: Transaction[]): Promise<Change[]> {
    const changes: Change[] = [];
    for (const txn of batch) {
      const commitTimestamp = txn.commitTime.toISOString();
      for (const m of txn.messages) {
        if (m.tag === "relation") {
          await relations.refresh(m.relid, m.schema, m.table, m.columns);
          continue;
        }
        if (m.tag !== "insert" && m.tag !== "update" && m.tag !== "delete") continue;
        const relation = relations.get(m.relid);
        if (!relation) continue;
        if (m.tag === "insert")
          changes.push({ type: "INSERT", relation, commitTimestamp, newRow: rowOf(relation, m.newTuple), oldIsKeyOnly: false });
        else if (m.tag === "update") {
          changes.push({
            type: "UPDATE",
            relation,
            commitTimestamp,
            newRow: rowOf(relation, m.newTuple),
            oldRow: rowOf(relation, m.oldTuple, m.oldIsKeyOnly),
            oldIsKeyOnly: m.oldIsKeyOnly,
          });
        } else
          changes.push({
            type: "DELETE",
            relation,
            commitTimestamp,
            oldRow: rowOf(relation, m.oldTuple, m.oldIsKeyOnly),
            oldIsKeyOnly: m.oldIsKeyOnly,
          });
      }
    }
    return changes;
  }

  function keyOf(change: Change): Record<string, string | null> | undefined {
    const row = change.newRow ?? change.oldRow;
    const key: Record<string, string | null> = {};
    for (const name of change.relation.primaryKey) {
      const value = row?.get(name);
      if (value === undefined) return undefined;
      key[name] = value;
    }
    return key;
  }

  async function deliverBatch(batch: Transaction[]): Promise<void> {
    const changes = await toChanges(batch);
    if (changes.length === 0 || subscriptions.size === 0) return;

    // Which subscriber wants which change, through which binding ids (before RLS).
    type Candidate = { subscriber: ChangeSubscriber; subscription: Subscription; ids: number[] };
    const candidates = changes.map(() => [] as Candidate[]);
    for (const [subscriber, subscription] of subscriptions) {
      changes.forEach((change, index) => {
        const ids: number[] = [];
        for (const binding of subscription.bindings) {
          const filters = binding.tables.get(change.relation.relid);
          if (!filters || (binding.event !== "*" && binding.event !== change.type)) continue;
          if (passes(filters, (change.type === "DELETE" ? change.oldRow : change.newRow) ?? new Map())) ids.push(binding.id);
        }
        if (ids.length > 0) candidates[index].push({ subscriber, subscription, ids });
      });
    }

    // Column privileges per (role, table): a role that cannot select the key gets Realtime's 401
    // record, and a table without a primary key its 400 record, without an RLS check.
    const selectable = new Map<string, Set<string>>();
    for (let index = 0; index < changes.length; index++) {
      for (const { subscription } of candidates[index]) {
        const key = `${subscription.role}:${changes[index].relation.relid}`;
        if (!selectable.has(key)) selectable.set(key, await relations.selectable(subscription.role, changes[index].relation.relid));
      }
    }
    const needsRls = (change: Change, role: string) =>
      change.relation.rlsEnabled &&
      change.type !== "DELETE" &&
      change.relation.primaryKey.length > 0 &&
      change.relation.primaryKey.every((c) => selectable.get(`${role}:${change.relation.relid}`)?.has(c));

    // RLS: one visibility check per distinct (role, claims), for the changes it would receive.
    const groups = new Map<string, VisibilityGroup & { seen: Set<string> }>();
    changes.forEach((change, index) => {
      const key = keyOf(change);
      if (!key) return;
      for (const { subscription } of candidates[index]) {
        if (!needsRls(change, subscription.role)) continue;
        let group = groups.get(subscription.claimsKey);
        if (!group)
          groups.set(
            subscription.claimsKey,
            (group = { role: subscription.role, claims: subscription.claims, tables: new Map(), seen: new Set() }),
          );
        if (group.seen.has(`${change.relation.relid}:${index}`)) continue;
        group.seen.add(`${change.relation.relid}:${index}`);
        const rows = group.tables.get(change.relation) ?? [];
        group.tables.set(change.relation, rows);
        rows.push({ index, key });
      }
    });
    const groupKeys = [...groups.keys()];
    let verdicts: Array<{ visible: Set<number>; error?: string }>;
    try {
      verdicts = await visibility.check(
        [...groups.values()],
        batch.map((txn) => txn.xid),
      );
    } catch (error) {
      verdicts = groupKeys.map(() => ({ visible: new Set<number>(), error: (error as Error).message }));
    }
    const visibleTo = new Map(groupKeys.map((key, i) => [key, verdicts[i]]));
    const failed = verdicts.filter((v) => v.error);
    if (failed.length > 0)
      log(`[realtime] RLS check failed for ${failed.length} subscriber group(s), changes withheld from them: ${failed[0].error}`);

    const dataCache = new Map<string, string>();
    for (let index = 0; index < changes.length; index++) {
      const change = changes[index];
      for (const { subscriber, subscription, ids } of candidates[index]) {
        if (!subscriptions.has(subscriber)) continue;
        if (needsRls(change, subscription.role) && !visibleTo.get(subscription.claimsKey)?.visible.has(index)) continue;
        const cacheKey = `${index}:${subscription.role}`;
        let data = dataCache.get(cacheKey);
        if (data === undefined)
          dataCache.set(
            cacheKey,
            (data = changeData(change, selectable.get(`${subscription.role}:${change.relation.relid}`) ?? new Set())),
          );
        subscriber.deliverChange(ids, data);
      }
    }
  }

  async function replicationReady(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([ready.then(() => true), timedOut]);
    clearTimeout(timer);
    return result;
  }

  return {
    async subscribe(subscriber: ChangeSubscriber, bindings: ChangeBinding[], claims: Claims): Promise<SubscribeResult> {
      try {
        const resolved = await resolveBindings(pool, bindings, claims);
        if (!(await replicationReady(10_000))) throw Object.assign(new Error("replication is not running"), { code: "ECONNREFUSED" });
        subscriptions.set(subscriber, { claims, role: String(claims.role), claimsKey: JSON.stringify(claims), bindings: resolved });
        return { ok: true };
      } catch (error) {
        return { ok: false, message: (error as Error).message, retry: isConnectionError(error) };
      }
    },
    updateClaims(subscriber: ChangeSubscriber, claims: Claims): void {
      const subscription = subscriptions.get(subscriber);
      if (subscription)
        subscriptions.set(subscriber, { ...subscription, claims, role: String(claims.role), claimsKey: JSON.stringify(claims) });
    },
    unsubscribe(subscriber: ChangeSubscriber): void {
      subscriptions.delete(subscriber);
    },
    ready: replicationReady,
    async close(): Promise<void> {
      closed = true;
      stream?.stop();
      await visibility.close();
      await pool.end().catch(() => undefined);
    },
  };
}
