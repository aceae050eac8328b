import type { StackConfig } from "./config.ts";
import { runningPid, startCluster } from "./postgres.ts";

/**
 * Keeps the stack's Postgres up while the API server runs: when the postmaster dies (kill -9,
 * OOM, a crash), it says so in the API log and starts the cluster again (Postgres replays its
 * WAL). It waits a few seconds first, so a `npm run stack -- start` typed right after a crash
 * does the restart without a race. If Postgres will not come back, it says why and stops the API
 * cleanly rather than serving a dead database.
 */
const checkEveryMs = 1000;
const graceMs = 3000;
const attempts = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      const pid = runningPid();
      if (pid) {
        lastPid = pid;
        log(`[db] PostgreSQL is running again (pid ${pid}, started elsewhere)`);
        return;
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
    if (stopped) return;
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
