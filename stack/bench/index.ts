// `npm run bench:stack`: how fast the local backend starts, then every other stack/bench/*.ts
// against a private stack (own STACK_DIR and ports), so a running dev stack is left alone.
// `npm run bench:stack -- broadcast realtime` runs only the benches named (without start times).
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { packageDir, repoRoot } from "../lib/paths.ts";

const benchDir = path.join(repoRoot, ".stack-bench");
const env = {
  ...process.env,
  STACK_DIR: benchDir,
  STACK_API_PORT: "62321",
  STACK_DB_PORT: "62322",
  STACK_INBOX_PORT: "62324",
  STACK_CHAIN_PORT: "62545",
};

function stack(command: string): { seconds: number; ok: boolean; output: string } {
  const began = performance.now();
  const result = spawnSync(process.execPath, [path.join(packageDir, "cli.ts"), command], { cwd: repoRoot, env, encoding: "utf8" });
  return { seconds: (performance.now() - began) / 1000, ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

function must<T extends { ok: boolean; output: string }>(result: T, what: string): T {
  if (!result.ok) {
    console.error(`${what} failed:\n${result.output}`);
    process.exit(1);
  }
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const only = process.argv.slice(2);
stack("stop");
rmSync(benchDir, { recursive: true, force: true });

/** Cold and warm `start`, around the CLI as a developer runs it; leaves the stack running. */
function startTimes(): void {
  console.log(
    "Stack start (to a ready, migrated database and API, and the local chain with the project's deployment), measured around `npm run stack -- start`:",
  );
  const loadBefore = loadavg()[0];
  const cold = must(stack("start"), "cold start");
  must(stack("stop"), "stop");
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    warm.push(must(stack("start"), "warm start").seconds);
    if (i < 2) must(stack("stop"), "stop");
  }
  console.log(`  cold (no .stack/; includes the chain's deploy script): ${cold.seconds.toFixed(2)} s   (goal < 15 s)`);
  const deployed = /Deployed the local chain with \S+ in ([\d.]+) s/.exec(cold.output)?.[1];
  if (deployed) console.log(`    the chain's deploy script (while Postgres starts): ${deployed} s`);
  console.log(
    `  warm (median of 3; the chain loads its saved state): ${median(warm).toFixed(2)} s   (goal < 3 s; runs: ${warm.map((s) => s.toFixed(2)).join(", ")})`,
  );
  console.log(`  (load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after, on ${cpus().length} cores)`);
}

if (only.length > 0) must(stack("start"), "start");
else startTimes();

let failed = false;
const benches = readdirSync(path.join(packageDir, "bench"))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts" && (only.length === 0 || only.includes(file.replace(/\.ts$/, ""))))
  .sort();
if (benches.length === 0) {
  console.error(`No bench named ${only.join(", ")} in stack/bench`);
  failed = true;
}
for (const file of benches) {
  console.log(`\n${file.replace(/\.ts$/, "")}:`);
  const result = spawnSync(process.execPath, [path.join(packageDir, "bench", file)], { cwd: repoRoot, env, stdio: "inherit" });
  if (result.status !== 0) failed = true;
}

stack("stop");
rmSync(benchDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
