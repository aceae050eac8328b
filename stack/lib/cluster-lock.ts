import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { pgDataDir, runDir } from "./paths.ts";
import { StackError } from "./run.ts";

/**
 * Who may start, stop or remove the cluster, and when. The CLI (`start`, `stop`, `reset`) and the
 * API process's watchdog both start Postgres; without coordination a watchdog restart could race
 * a `start` after a crash (one deleting the other's postmaster.pid) or bring back a cluster that
 * `stop`/`reset` is shutting down or deleting. Two files under the state dir settle it:
 * - `cluster.lock` (O_EXCL, holds the owner's pid): one cluster operation at a time, across processes;
 * - `db.stop-requested`: written before a deliberate stop, removed by the next start; while it
 *   exists the watchdog never restarts the cluster.
 */
const lockPath = path.join(runDir, "cluster.lock");
const stopMarkerPath = path.join(runDir, "db.stop-requested");
const lockWaitMs = 180_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** pg_ctl runs for this data directory (e.g. left behind by a process that died holding the lock). */
function pgCtlRunning(): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (path.basename(args[0] ?? "") === "pg_ctl" && args.includes(pgDataDir)) return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}

function tryLock(): boolean {
  mkdirSync(runDir, { recursive: true });
  try {
    const fd = openSync(lockPath, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  }
}

function lockHolder(): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

let inProcess: Promise<unknown> = Promise.resolve();
const holding = new AsyncLocalStorage<true>();

/** Runs `body` holding the cluster lock (re-entrant within this process, serialised across processes). */
export async function withClusterLock<T>(body: () => Promise<T>): Promise<T> {
  if (holding.getStore()) return await body();
  const previous = inProcess;
  let release!: () => void;
  inProcess = new Promise<void>((resolve) => (release = resolve));
  await previous.catch(() => undefined);
  try {
    await acquire();
    try {
      return await holding.run(true, body);
    } finally {
      rmSync(lockPath, { force: true });
    }
  } finally {
    release();
  }
}

async function acquire(): Promise<void> {
  const deadline = Date.now() + lockWaitMs;
  let unreadableSince: number | undefined;
  while (!tryLock()) {
    const holder = lockHolder();
    if (holder === undefined) {
      // written but not yet filled in by its owner, or garbage: give the owner a moment
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince > 2000) rmSync(lockPath, { force: true });
    } else if (!alive(holder)) {
      // its owner died mid-operation (e.g. the API killed while restarting Postgres): let its
      // pg_ctl finish, so what we then see of the cluster is what it will stay
      while (pgCtlRunning() && Date.now() < deadline) await sleep(100);
      if (lockHolder() === holder) rmSync(lockPath, { force: true });
      continue;
    } else {
      unreadableSince = undefined;
    }
    if (Date.now() > deadline) {
      throw new StackError(
        `Another stack command (pid ${holder ?? "unknown"}) has held ${lockPath} for ${lockWaitMs / 1000} s. If no stack command runs, delete that file.`,
      );
    }
    await sleep(100);
  }
}

/** Marks the cluster as deliberately stopping, so the watchdog stands back. */
export function requestClusterStop(): void {
  mkdirSync(runDir, { recursive: true });
  closeSync(openSync(stopMarkerPath, "w"));
}

export function clearClusterStopRequest(): void {
  rmSync(stopMarkerPath, { force: true });
}

export function clusterStopRequested(): boolean {
  return existsSync(stopMarkerPath);
}
