// Edge Functions against the running stack: cold start (first request to a function whose Deno
// worker is not running yet) and warm throughput of the example `hello` function, measured with
// autocannon from a second process.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { anonKey } from "../lib/keys.ts";
import { repoRoot, supabaseDir } from "../lib/paths.ts";

const config = loadConfig();
const functionsUrl = `http://127.0.0.1:${config.apiPort}/functions/v1`;
const duration = Number(process.env.FUNCTIONS_BENCH_SECONDS ?? 10);
const connections = Number(process.env.FUNCTIONS_BENCH_CONNECTIONS ?? 20);
const headers = { Authorization: `Bearer ${anonKey}`, "Content-Type": "application/json" };

const fixtureName = `fx-fn-bench-${process.pid}`;
const fixtureDir = path.join(supabaseDir, "functions", fixtureName);

async function timeRequest(url: string): Promise<{ ms: number; status: number }> {
  const began = performance.now();
  const response = await fetch(url, { method: "POST", headers, body: "{}" });
  await response.arrayBuffer();
  return { ms: performance.now() - began, status: response.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  // Warm the shared dependency cache first, so cold start measures the worker, not the registry.
  const first = await timeRequest(`${functionsUrl}/hello`);
  if (first.status !== 400 && first.status !== 200) throw new Error(`hello answered ${first.status}`);

  mkdirSync(fixtureDir, { recursive: true });
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    writeFileSync(path.join(fixtureDir, "index.ts"), `Deno.serve(() => Response.json({ run: ${i} }));\n`);
    // The edit replaces the worker; wait until the old one stops answering, then time the first call.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const { ms, status } = await timeRequest(`${functionsUrl}/${fixtureName}`);
    if (status !== 200) throw new Error(`fixture answered ${status}`);
    cold.push(ms);
  }
  console.log(
    `  cold start (new Deno worker, first request): median ${median(cold).toFixed(0)} ms (runs: ${cold.map((ms) => ms.toFixed(0)).join(", ")})`,
  );

  const bin = path.join(repoRoot, "node_modules", ".bin", "autocannon");
  const args = [
    "-c",
    String(connections),
    "-d",
    String(duration),
    "-j",
    "-m",
    "POST",
    "-H",
    `Authorization=Bearer ${anonKey}`,
    "-H",
    "Content-Type=application/json",
    "-b",
    '{"name":"bench"}',
    `${functionsUrl}/hello`,
  ];
  const run = spawnSync(bin, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`autocannon failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  console.log(
    `  warm hello (verify_jwt + zod, ${connections} connections, ${duration} s): ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (non-2xx ${result.non2xx}, errors ${result.errors})`,
  );
} finally {
  rmSync(fixtureDir, { recursive: true, force: true });
}
