// A Next.js server for a bench: started in its own process group (next's CLI forks the server, so
// stopping only the CLI would leave the server holding the port), on a port that must be free.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { binDir, repoRoot } from "@cuepoint/stack/paths";
import { portIsFree, waitForPort } from "@cuepoint/stack";

export interface BenchServer {
  origin: string;
  /** The process group the server runs in (its CLI's pid). */
  group: number;
  stop(): void;
}

export async function startNext(command: "start" | "dev", port: number, env: NodeJS.ProcessEnv): Promise<BenchServer> {
  if (!(await portIsFree(port)))
    throw new Error(`Port ${port} is in use; stop what holds it or choose another (BENCH_WEB_PORT, BENCH_WEB_DEV_PORT).`);
  const child: ChildProcess = spawn(path.join(binDir, "next"), [command, "-p", String(port)], {
    cwd: repoRoot,
    stdio: "ignore",
    env,
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  if (!(await waitForPort(port, 60_000))) {
    stop();
    throw new Error(`next ${command} did not come up on port ${port}`);
  }
  return { origin: `http://localhost:${port}`, group: child.pid!, stop };
}
