// What the Realtime benches share (the stack's `bench:stack -- broadcast` and the app's scripts,
// through `@cuepoint/stack/realtime-bench`): raw sockets that speak Phoenix vsn 2.0.0 as
// realtime-js does (so a thousand of them cost the bench process little), joins in batches,
// percentiles, and the database's CPU time read from /proc.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import type { StackConfig } from "../lib/config.ts";
import { anonKey, signHs256 } from "../lib/keys.ts";
import { dbDir } from "../lib/paths.ts";

export interface Subscriber {
  user: string;
  ws: WebSocket;
  ref: number;
  replies: Map<string, (reply: JoinReply) => void>;
  onBroadcast?: (payload: { event: string; payload: Record<string, unknown> }) => void;
  /**
   * When set, a broadcast frame is handed over as its text, unparsed: a thousand receivers share
   * this process's one thread, and parsing every copy of a large payload there would be counted as
   * delivery time (each real client parses only its own).
   */
  onBroadcastText?: (frame: string) => void;
  onChange?: (data: { record: Record<string, unknown> }) => void;
  onSystem?: (payload: { extension: string; status: string; message: string }) => void;
}

export interface JoinReply {
  status: string;
  response: Record<string, unknown>;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const fmtMs = (ms: number) => `${ms.toFixed(1)} ms`;

/** A signed-in user's access token, as Auth would issue it. */
export function userToken(user: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ sub: user, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600, email: `${user}@bench.test` });
}

/** CPU seconds used so far by the database: the postmaster and its processes (live ones from schedstat, in ns; exited ones from the postmaster's children totals). */
export function databaseCpuMeter(): () => number {
  const postmasterPid = Number(readFileSync(path.join(dbDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  const ticks = 100;
  return () => {
    let seconds = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const pid = Number(entry);
        if (pid !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
        seconds += Number(readFileSync(`/proc/${entry}/schedstat`, "utf8").split(" ")[0]) / 1e9;
        if (pid === postmasterPid) seconds += (Number(fields[13]) + Number(fields[14])) / ticks; // cutime, cstime
      } catch {
        // the process ended meanwhile
      }
    }
    return seconds;
  };
}

export function realtimeUrl(config: StackConfig): string {
  return `ws://127.0.0.1:${config.apiPort}/realtime/v1/websocket?apikey=${anonKey}&vsn=2.0.0`;
}

export async function connect(config: StackConfig, user: string): Promise<Subscriber> {
  const ws = new WebSocket(realtimeUrl(config));
  const subscriber: Subscriber = { user, ws, ref: 0, replies: new Map() };
  ws.on("message", (data) => {
    const text = String(data);
    if (subscriber.onBroadcastText && text.lastIndexOf(',"broadcast",{', 200) !== -1) return subscriber.onBroadcastText(text);
    const [, ref, , event, payload] = JSON.parse(text) as [string | null, string | null, string, string, Record<string, unknown>];
    if (event === "phx_reply" && ref) subscriber.replies.get(ref)?.(payload as unknown as JoinReply);
    else if (event === "broadcast") subscriber.onBroadcast?.(payload as { event: string; payload: Record<string, unknown> });
    else if (event === "postgres_changes") subscriber.onChange?.((payload as { data: { record: Record<string, unknown> } }).data);
    else if (event === "system") subscriber.onSystem?.(payload as { extension: string; status: string; message: string });
  });
  await new Promise<void>((resolve, reject) => ws.once("open", () => resolve()).once("error", reject));
  const heartbeat = setInterval(
    () => ws.readyState === ws.OPEN && ws.send(JSON.stringify([null, "hb", "phoenix", "heartbeat", {}])),
    25_000,
  );
  heartbeat.unref();
  return subscriber;
}

/** Joins `channel` (a topic, without `realtime:`) with the subscriber's own token. */
export function join(s: Subscriber, channel: string, config: Record<string, unknown>): Promise<JoinReply> {
  const ref = String(++s.ref);
  return new Promise((resolve) => {
    s.replies.set(ref, resolve);
    s.ws.send(JSON.stringify([ref, ref, `realtime:${channel}`, "phx_join", { config, access_token: userToken(s.user) }]));
  });
}

/** Runs `work` on every item, in batches, so a thousand authorisations do not all queue at once. */
export async function inBatches<T>(items: T[], work: (item: T) => Promise<void>, size = 50): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Joins each subscriber to a private broadcast channel; throws if any join is refused. */
export async function joinPrivate(group: Subscriber[], topic: string): Promise<void> {
  await inBatches(group, async (s) => {
    const reply = await join(s, topic, { private: true, broadcast: { self: false }, presence: { enabled: false } });
    if (reply.status !== "ok") throw new Error(`join refused: ${JSON.stringify(reply.response)}`);
  });
}

/** Subscribes each subscriber to postgres_changes (its own public channel) and waits until each subscription is live. */
export async function subscribeChanges(
  group: Subscriber[],
  channelOf: (s: Subscriber) => string,
  change: Record<string, unknown>,
): Promise<void> {
  await inBatches(group, async (s) => {
    const subscribed = new Promise<void>((resolve, reject) => {
      s.onSystem = (m) => {
        if (m.extension !== "postgres_changes") return;
        if (m.status === "ok") resolve();
        else reject(new Error(m.message));
      };
    });
    const reply = await join(s, channelOf(s), { private: false, postgres_changes: [change] });
    if (reply.status !== "ok") throw new Error(`join refused: ${JSON.stringify(reply.response)}`);
    await subscribed;
  });
}

export interface Delivery {
  latencies: number[];
  cpuMsPerMessage: number;
  missing: number;
}

/**
 * Commits `count` changes one after another (`commit(n)` resolves once change n is committed),
 * each once every receiver has the previous one. `listen(s, arrived)` wires a receiver so it calls
 * `arrived(n)` when change n reaches it. Returns every delivery's commit → arrival time and the
 * database's CPU per change.
 */
export async function measureDeliveries(
  receivers: Subscriber[],
  count: number,
  listen: (s: Subscriber, arrived: (n: number) => void) => void,
  unlisten: (s: Subscriber) => void,
  commit: (n: number) => Promise<unknown>,
  cpuSeconds: () => number,
  timeoutMs = 5000,
): Promise<Delivery> {
  const latencies: number[] = [];
  let pending: { n: number; at: number; left: number; done: () => void } | undefined;
  const arrived = (n: number) => {
    const at = performance.now();
    if (!pending || n !== pending.n) return;
    latencies.push(at - pending.at);
    if (--pending.left === 0) pending.done();
  };
  for (const s of receivers) listen(s, arrived);
  let missing = 0;
  const cpuBefore = cpuSeconds();
  for (let n = 0; n < count; n++) {
    const delivered = new Promise<void>((done) => (pending = { n, at: performance.now(), left: receivers.length, done }));
    // the clock started just before the change was sent; it is committed when commit() resolves
    await commit(n);
    const ok = await Promise.race([delivered.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs))]);
    if (!ok) missing += pending?.left ?? 0;
  }
  const cpuMsPerMessage = ((cpuSeconds() - cpuBefore) * 1000) / count;
  for (const s of receivers) unlisten(s);
  return { latencies, cpuMsPerMessage, missing };
}

export function reportDelivery(label: string, result: Delivery, goalMs?: number): void {
  const p99 = percentile(result.latencies, 99);
  console.log(label);
  console.log(
    `  commit → delivery p50 ${fmtMs(percentile(result.latencies, 50))}   p99 ${fmtMs(p99)}   max ${fmtMs(result.latencies.reduce((a, b) => Math.max(a, b), 0))}` +
      (goalMs ? `   (goal p99 < ${goalMs} ms: ${p99 < goalMs ? "met" : "NOT met"})` : ""),
  );
  console.log(
    `  database CPU per message: ${result.cpuMsPerMessage.toFixed(3)} ms${result.missing ? `   (${result.missing} deliveries did not arrive)` : ""}`,
  );
}
