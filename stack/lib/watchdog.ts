import { readFileSync, readdirSync } from "node:fs";
import type { StackConfig } from "./config.ts";
import { pgDataDir } from "./paths.ts";
import { runningPid, startCluster } from "./postgres.ts";

/**
 * Keeps the stack's Postgres up while the API server runs: when the postmaster dies (kill -9,
 * OOM, a crash), it says so in the API log and starts the cluster again (Postgres replays its
 * WAL). It first waits a few seconds and stands back while anything else is starting this
 * cluster, so a `npm run stack -- start` typed right after a crash does the restart without two
 * starts racing. If Postgres will not come back, it says why and stops the API cleanly rather
 * than serving a dead database.
 */
const checkEveryMs = 1000;
const graceMs = 5000;
const attempts = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Another process (pg_ctl, a starting postmaster) working on this cluster's data directory. */
function clusterBeingStarted(): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.includes(pgDataDir)) return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}

export function watchPostgres(config: StackConfig, log: (line: string) => void, giveUp: () => void): { stop(): void } {
  let stopped = false;
  let busy = false;
  let lastPid = runningPid();

  async function recover(): Promise<void> {
    const began = Date.now();
    log(`[db] PostgreSQL${lastPid ? ` (pid ${lastPid})` : ""} is not running: it crashed or was killed. Restarting it in ${graceMs / 1000} s…`);
    await sleep(graceMs);
    let failure = "";
    for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
      if (runningPid() || clusterBeingStarted()) {
        await sleep(2000);
        if (runningPid()) {
          lastPid = runningPid();
          log(`[db] PostgreSQL is running again (pid ${lastPid}, started elsewhere)`);
          return;
        }
        continue;
      }
      try {
        await startCluster(config);
        lastPid = runningPid();
        log(`[db] PostgreSQL is back (pid ${lastPid}) after ${((Date.now() - began) / 1000).toFixed(1)} s; its WAL was replayed, clients reconnect on their own`);
        return;
      } catch (error) {
        failure = (error as Error).message;
        log(`[db] restarting PostgreSQL failed (attempt ${attempt} of ${attempts}): ${failure}`);
        await sleep(2000);
      }
    }
    if (stopped || runningPid()) return;
    log(`[db] PostgreSQL could not be restarted, so the API stops too. Fix the cause above, then run \`npm run stack -- start\`.`);
    giveUp();
  }

  const timer = setInterval(() => {
    if (stopped || busy) return;
    const pid = runningPid();
    if (pid) {
      lastPid = pid;
      return;
    }
    busy = true;
    void recover().finally(() => {
      busy = false;
    });
  }, checkEveryMs);
  timer.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
