import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";

/** How one function's Deno process is started: the command and the environment it sees. */
export interface WorkerLaunch {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** How long the module may take to load (first runs download npm packages). */
  bootTimeoutMs: number;
  log: (line: string) => void;
}

class BootError extends Error {}

/**
 * One running function: a Deno process serving on a loopback port. `ready` settles once it
 * listens (or rejects with a BootError if it exits or stalls first). Requests are counted so a
 * worker replaced after a code change is stopped only when its last request finished.
 */
export class FunctionWorker {
  readonly name: string;
  readonly ready: Promise<number>;
  port = 0;
  inflight = 0;
  stale = false;
  exited = false;
  lastUsed = Date.now();
  /** When it was spawned: Deno reads the function's code after this, so later edits make it stale. */
  readonly startedAt = Date.now();
  private readonly child: ChildProcess;
  private readonly exitListeners: (() => void)[] = [];

  constructor(launch: WorkerLaunch) {
    this.name = launch.name;
    const marker = `__stack_function_ready_${randomUUID()}__`;
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...launch.env, STACK_FUNCTION_READY_MARKER: marker } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const recent: string[] = [];
    const remember = (line: string) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      launch.log(line);
    };
    this.ready = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BootError(`${launch.name} did not start within ${launch.bootTimeoutMs} ms`));
        this.kill();
      }, launch.bootTimeoutMs);
      createInterface({ input: this.child.stdout! }).on("line", (line) => {
        if (line.startsWith(marker)) {
          clearTimeout(timer);
          this.port = Number(line.slice(marker.length));
          resolve(this.port);
        } else remember(line);
      });
      createInterface({ input: this.child.stderr! }).on("line", remember);
      this.child.on("error", (error) => {
        clearTimeout(timer);
        reject(new BootError(`${launch.name}: could not run Deno: ${error.message}`));
      });
      this.child.on("exit", (code, signal) => {
        clearTimeout(timer);
        this.exited = true;
        reject(new BootError(`${launch.name} exited while starting (${signal ?? `code ${code}`}): ${recent.slice(-5).join(" | ")}`));
        for (const listener of this.exitListeners) listener();
      });
    });
    // Nobody may be waiting on `ready` when a worker dies early; the rejection is reported by the pool.
    this.ready.catch(() => undefined);
    this.child.stdin!.on("error", () => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  onExit(listener: () => void): void {
    if (this.exited) listener();
    else this.exitListeners.push(listener);
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}
