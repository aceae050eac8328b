import { clusterStopRequested } from "./cluster-lock.ts";
import type { StackConfig } from "./config.ts";
import { restartCrashedCluster, runningPid } from "./postgres.ts";

/**
 * Keeps the stack's Postgres up while the API server runs: when the postmaster dies (kill -9,
 * OOM, a crash), it says so in the API log and starts the cluster again (Postgres replays its
 * WAL). It first waits a few seconds, then restarts under the cluster lock (stack/lib/cluster-lock.ts),
 * so a `npm run stack -- start` typed right after a crash and the watchdog never start it twice,
 * and it never acts on a cluster whose stop was requested (`stop`, `reset`). If Postgres will not
 * come back, it says why and stops the API cleanly rather than serving a dead database.
 */
const checkEveryMs = 1000;
/** STACK_DB_WATCHDOG_GRACE_MS: how long a crashed cluster stays down before the watchdog restarts it. */
const graceMs = Number(process.env.STACK_DB_WATCHDOG_GRACE_MS) || 5000;
const attempts = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function watchPostgres(config: StackConfig, log: (line: string) => void, giveUp: () => void): { stop(): void } {
  let stopped = false;
  let busy = false;
  let lastPid = runningPid();

  async function recover(): Promise<void> {
    const began = Date.now();
    log(
      `[db] PostgreSQL${lastPid ? ` (pid ${lastPid})` : ""} is not running: it crashed or was killed. Restarting it in ${Math.round(graceMs / 1000)} s…`,
    );
    await sleep(graceMs);
    let failure = "";
    for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
      try {
        const outcome = await restartCrashedCluster(config);
        lastPid = runningPid();
        if (outcome === "stop requested") log("[db] PostgreSQL was stopped on purpose meanwhile; not restarting it");
        else if (outcome === "already running") log(`[db] PostgreSQL is running again (pid ${lastPid}, started elsewhere)`);
        else
          log(
            `[db] PostgreSQL is back (pid ${lastPid}) after ${((Date.now() - began) / 1000).toFixed(1)} s; its WAL was replayed, clients reconnect on their own`,
          );
        return;
      } catch (error) {
        failure = (error as Error).message;
        log(`[db] restarting PostgreSQL failed (attempt ${attempt} of ${attempts}): ${failure}`);
        await sleep(2000);
      }
    }
    if (stopped || runningPid() || clusterStopRequested()) return;
    log(`[db] PostgreSQL could not be restarted, so the API stops too. Fix the cause above, then run \`npm run stack -- start\`.`);
    giveUp();
  }

  const timer = setInterval(() => {
    if (stopped || busy || clusterStopRequested()) return;
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
