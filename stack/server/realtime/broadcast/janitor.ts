import pg from "pg";
import type { StackConfig } from "../../../lib/config.ts";
import { dbPassword } from "../../../lib/postgres.ts";
import { createMessagePartitions, dropOldMessagePartitions } from "../../../lib/realtime-messages.ts";

const everyMs = 60 * 60 * 1000;

/**
 * Realtime's janitor for realtime.messages: at start and then hourly, the coming days' partitions
 * are created and the days older than three days dropped (detached concurrently first, so writers
 * never wait). A database that is away is simply tried again at the next round.
 */
export function startMessagesJanitor(config: StackConfig, log: (line: string) => void): { stop(): void } {
  let running = false;
  async function round(): Promise<void> {
    if (running) return;
    running = true;
    const client = new pg.Client({
      host: "127.0.0.1",
      port: config.dbPort,
      database: "postgres",
      user: "postgres",
      password: dbPassword,
      connectionTimeoutMillis: 5000,
    });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await createMessagePartitions(client);
      const dropped = await dropOldMessagePartitions(client);
      if (dropped.length > 0) log(`[realtime] dropped realtime.messages partitions older than three days: ${dropped.join(", ")}`);
    } catch (error) {
      log(`[realtime] realtime.messages maintenance failed (tried again in an hour): ${(error as Error).message}`);
    } finally {
      running = false;
      await client.end().catch(() => undefined);
    }
  }
  void round();
  const timer = setInterval(() => void round(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
