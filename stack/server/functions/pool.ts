import { workerLaunch } from "./deno.ts";
import { readFunctionsDotenv, type FunctionSettings, type FunctionsOptions } from "./options.ts";
import { FunctionWorker } from "./worker.ts";

/**
 * At most one live worker per function (the edge runtime's `per_worker` policy): started on the
 * first request, replaced when its code changes or it dies, stopped when idle.
 */
export class WorkerPool {
  private readonly options: FunctionsOptions;
  private readonly current = new Map<string, FunctionWorker>();
  private readonly all = new Set<FunctionWorker>();
  private readonly idleTimer: NodeJS.Timeout;

  constructor(options: FunctionsOptions) {
    this.options = options;
    this.idleTimer = setInterval(() => this.stopIdle(), Math.min(options.idleMs, 60_000));
    this.idleTimer.unref();
  }

  /** The function's live worker, started if needed; the caller must `release` it afterwards. */
  acquire(name: string, settings: FunctionSettings): FunctionWorker {
    let worker = this.current.get(name);
    if (!worker || worker.stale || worker.exited) {
      worker = this.start(name, settings);
    }
    worker.inflight++;
    worker.lastUsed = Date.now();
    // oneshot: the worker serves this request only and stops once it is answered
    if (this.options.policy === "oneshot") {
      worker.stale = true;
      this.current.delete(name);
    }
    return worker;
  }

  release(worker: FunctionWorker): void {
    worker.inflight--;
    worker.lastUsed = Date.now();
    if (worker.stale && worker.inflight === 0) worker.kill();
  }

  /**
   * Marks workers as outdated: new requests get a fresh worker, old ones finish their requests.
   * A worker spawned after `changedAt` (epoch ms of the change) already runs the new code and stays.
   */
  invalidate(name?: string, changedAt = Number.POSITIVE_INFINITY): void {
    for (const [key, worker] of this.current) {
      if (name !== undefined && key !== name) continue;
      if (worker.startedAt > changedAt) continue;
      worker.stale = true;
      if (worker.inflight === 0) worker.kill();
      this.current.delete(key);
    }
  }

  /** Terminates a worker at once (a request exceeded the wall-clock limit). */
  terminate(worker: FunctionWorker): void {
    worker.stale = true;
    if (this.current.get(worker.name) === worker) this.current.delete(worker.name);
    worker.kill();
  }

  close(): void {
    clearInterval(this.idleTimer);
    for (const worker of this.all) worker.kill();
  }

  private start(name: string, settings: FunctionSettings): FunctionWorker {
    const env = { ...this.options.baseEnv(), ...readFunctionsDotenv(this.options.functionsDir, this.options.log) };
    const worker = new FunctionWorker(workerLaunch(this.options, name, settings, env));
    this.current.set(name, worker);
    this.all.add(worker);
    worker.onExit(() => {
      this.all.delete(worker);
      if (this.current.get(name) === worker) this.current.delete(name);
    });
    return worker;
  }

  private stopIdle(): void {
    const cutoff = Date.now() - this.options.idleMs;
    for (const worker of this.current.values()) {
      if (worker.inflight === 0 && worker.lastUsed < cutoff) this.terminate(worker);
    }
  }
}
