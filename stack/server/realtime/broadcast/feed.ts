import pg from "pg";
import type { StackConfig } from "../../../lib/config.ts";
import { dbPassword } from "../../../lib/postgres.ts";
import type { PgOutputMessage, TupleValue } from "../changes/pgoutput.ts";
import { type ReplicationStream, startReplication } from "../changes/replication.ts";
import { type TopicHub, tenantTopicOf } from "../hub.ts";

/** A channel that takes broadcasts from the database, encoded once for all its receivers. */
export interface BroadcastReceiver {
  readonly tenantTopic: string;
  receiveDatabaseBroadcast(message: EncodedBroadcast): void;
}

/**
 * One message from the database as every receiver gets it: its JSON (`{type, event, payload, meta}`)
 * and the UTF-8 bytes of each distinct frame around it. Receivers whose frames start alike (same
 * join ref and topic — realtime-js clients mostly do) share one buffer, so a message to a thousand
 * sockets is encoded a handful of times, not a thousand.
 */
export class EncodedBroadcast {
  readonly json: string;
  private readonly frames = new Map<string, Buffer>();

  constructor(json: string) {
    this.json = json;
  }

  /** The text frame `${start}${json}${end}`, encoded once per distinct `start` and `end`. */
  frame(start: string, end: string): Buffer {
    const key = start + end;
    let bytes = this.frames.get(key);
    if (!bytes) {
      bytes = Buffer.from(`${start}${this.json}${end}`);
      this.frames.set(key, bytes);
    }
    return bytes;
  }
}

export interface BroadcastFeed {
  /** Resolves true once messages stream (a join waits for it), false if not within `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A message of realtime.messages as the WAL carries it (column values in text form). */
export interface MessageRow {
  id: string;
  topic: string;
  event: string;
  payload: string;
  private: boolean;
}

const messagesPublication = "supabase_realtime_messages_publication";
const slot = "realtime_stack_messages";
/** Ids of the last messages delivered: a stream resumed after a crash may replay a few. */
const rememberedIds = 10_000;

/** The JSON every receiver of a message gets: Realtime's broadcast payload, with the message id in `meta`. */
function broadcastJson(message: MessageRow): string {
  return `{"type":"broadcast","event":${JSON.stringify(message.event)},"payload":${message.payload},"meta":{"id":${JSON.stringify(message.id)}}}`;
}

/** A committed broadcast row of realtime.messages (or a partition of it), or undefined for anything else. */
function messageRow(columns: string[], tuple: TupleValue[]): MessageRow | undefined {
  const value = (name: string) => tuple[columns.indexOf(name)];
  const [extension, id, topic, event, payload, isPrivate] = ["extension", "id", "topic", "event", "payload", "private"].map(value);
  if (extension !== "broadcast" || !id || !topic || typeof event !== "string" || typeof payload !== "string") return undefined;
  return { id, topic, event, payload, private: isPrivate === "t" };
}

/**
 * Broadcast from the database: the inserts into realtime.messages, read from the WAL (its own
 * publication and a permanent slot, so a restart of Postgres loses nothing committed after it),
 * each delivered in commit order to the channels joined to its topic — private messages to private
 * channels, the others to public ones. Delivery asks the database nothing: who may read a private
 * topic was settled when each channel joined (or sent a new token).
 */
export function createBroadcastFeed(config: StackConfig, hub: TopicHub<BroadcastReceiver>, log: (line: string) => void): BroadcastFeed {
  const connection = { host: "127.0.0.1", port: config.dbPort, database: "postgres", user: "postgres", password: dbPassword };
  const relations = new Map<number, string[]>();
  const delivered = new Set<string>();
  let pending: MessageRow[] = [];
  let stream: ReplicationStream | undefined;
  let closed = false;
  let downSince: number | undefined;
  let markReady: () => void = () => undefined;
  let readyPromise = new Promise<void>((resolve) => (markReady = resolve));

  function deliver(message: MessageRow): void {
    if (delivered.has(message.id)) return;
    delivered.add(message.id);
    if (delivered.size > rememberedIds) delivered.delete(delivered.values().next().value as string);
    const encoded = new EncodedBroadcast(broadcastJson(message));
    for (const member of hub.members(tenantTopicOf(message.topic, message.private))) member.receiveDatabaseBroadcast(encoded);
  }

  function onMessage(message: PgOutputMessage): void {
    if (message.tag === "begin") pending = [];
    else if (message.tag === "relation") {
      if (message.schema === "realtime" && message.table.startsWith("messages"))
        relations.set(
          message.relid,
          message.columns.map((c) => c.name),
        );
    } else if (message.tag === "insert") {
      const columns = relations.get(message.relid);
      const row = columns && messageRow(columns, message.newTuple);
      if (row) pending.push(row);
    } else if (message.tag === "commit") {
      const committed = pending;
      pending = [];
      for (const row of committed) deliver(row);
    }
  }

  /** A new API process starts from now: a slot left by an earlier one would replay old messages. */
  async function dropLeftoverSlot(): Promise<void> {
    const client = new pg.Client({ ...connection, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query("select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1 and not active", [
        slot,
      ]);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async function connect(first: boolean): Promise<void> {
    while (!closed) {
      try {
        if (first) await dropLeftoverSlot();
        first = false;
        stream = await startReplication({
          ...connection,
          publication: messagesPublication,
          slot,
          onMessage,
          onEnd: (error) => {
            stream = undefined;
            pending = [];
            if (closed) return;
            readyPromise = new Promise<void>((resolve) => (markReady = resolve));
            downSince = Date.now();
            log(`[realtime] lost the broadcast stream (${error.message}); resuming it when the database is back`);
            setTimeout(() => void connect(false), 250);
          },
        });
        if (downSince !== undefined) log(`[realtime] broadcast stream is back after ${((Date.now() - downSince) / 1000).toFixed(1)} s`);
        downSince = undefined;
        markReady();
        return;
      } catch (error) {
        if (downSince === undefined) {
          downSince = Date.now();
          log(`[realtime] cannot start the broadcast stream (${(error as Error).message}); retrying`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  void connect(true);

  return {
    async ready(timeoutMs: number): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const result = await Promise.race([readyPromise.then(() => true), timedOut]);
      clearTimeout(timer);
      return result;
    },
    async close(): Promise<void> {
      closed = true;
      stream?.stop();
      // the slot goes with the process that reads it
      await new Promise((r) => setTimeout(r, 100));
      await dropLeftoverSlot().catch(() => undefined);
    },
  };
}
