import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { logsDir, repoRoot, runDir } from "./paths.ts";
import { assertPortFree, waitForPort } from "./ports.ts";
import { StackError } from "./run.ts";

/** A long-running process of the stack, started detached so it outlives `stack start`. */
export interface ServiceSpec {
  name: string;
  /** A Node script to run, or `command` with `args` (e.g. a binary from node_modules). */
  entry?: string;
  command?: string;
  args?: string[];
  ports: { port: number; what: string; hint?: string }[];
}

const pidFile = (name: string) => path.join(runDir, `${name}.pid`);
const serviceLogPath = (name: string) => path.join(logsDir, `${name}.log`);

export function servicePid(name: string): number | undefined {
  if (!existsSync(pidFile(name))) return undefined;
  const pid = Number(readFileSync(pidFile(name), "utf8").trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

export async function startService(spec: ServiceSpec, env: Record<string, string> = {}): Promise<"started" | "already running"> {
  if (servicePid(spec.name)) return "already running";
  for (const { port, what, hint } of spec.ports) await assertPortFree(port, what, hint);
  mkdirSync(runDir, { recursive: true });
  mkdirSync(logsDir, { recursive: true });
  const log = openSync(serviceLogPath(spec.name), "a");
  const child = spawn(spec.command ?? process.execPath, spec.args ?? [spec.entry ?? ""], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, ...env },
  });
  closeSync(log);
  child.unref();
  if (!child.pid) throw new StackError(`Could not start the ${spec.name} service`);
  writeFileSync(pidFile(spec.name), String(child.pid));
  for (const { port } of spec.ports) {
    if (!(await waitForPort(port, 15_000))) {
      await stopService(spec.name);
      const tail = readFileSync(serviceLogPath(spec.name), "utf8").trim().split("\n").slice(-20).join("\n");
      throw new StackError(`The ${spec.name} service did not open port ${port} (log: ${serviceLogPath(spec.name)}):\n${tail}`);
    }
  }
  return "started";
}

export async function stopService(name: string): Promise<"stopped" | "not running"> {
  const pid = servicePid(name);
  rmSync(pidFile(name), { force: true });
  if (!pid) return "not running";
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return "stopped";
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return "stopped"; // it ended just now
  }
  // only once it is gone are its ports free and its watchdog out of the way
  while (Date.now() < deadline + 5000) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return "stopped";
}
