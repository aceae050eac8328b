// Auth under load, measured with autocannon in a second process against the running stack:
// password sign-ins per second (bcrypt-bound, as in GoTrue) and GET /auth/v1/user latency.
// `npm run bench:stack` runs it on a private stack; BENCH_SECONDS shortens it while developing.
import { spawn } from "node:child_process";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { anonKey, serviceRoleKey } from "../lib/keys.ts";
import { binDir } from "../lib/paths.ts";

const config = loadConfig();
const apiUrl = `http://127.0.0.1:${config.apiPort}`;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  non2xx: number;
  "2xx": number;
}

function autocannon(args: string[]): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(binDir, "autocannon"), ["--json", "-d", String(seconds), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as AutocannonResult) : reject(new Error(`autocannon exited with ${code}`)),
    );
  });
}

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const email = `bench-${Date.now().toString(36)}@bench.stack.test`;
const password = "bench-password-123";
await json(`${apiUrl}/auth/v1/admin/users`, {
  method: "POST",
  headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, "Content-Type": "application/json" },
  body: JSON.stringify({ email, password, email_confirm: true }),
});
const credentials = JSON.stringify({ email, password });
const session = await json(`${apiUrl}/auth/v1/token?grant_type=password`, {
  method: "POST",
  headers: { apikey: anonKey, "Content-Type": "application/json" },
  body: credentials,
});

const signIns = await autocannon([
  "-c",
  "8",
  "-m",
  "POST",
  "-H",
  `apikey=${anonKey}`,
  "-H",
  "Content-Type=application/json",
  "-b",
  credentials,
  `${apiUrl}/auth/v1/token?grant_type=password`,
]);
const getUser = await autocannon([
  "-c",
  "10",
  "-H",
  `apikey=${anonKey}`,
  "-H",
  `Authorization=Bearer ${String(session.access_token)}`,
  `${apiUrl}/auth/v1/user`,
]);

const failures = (r: AutocannonResult) => r.non2xx + r.errors;
console.log(
  `  password sign-ins: ${(signIns["2xx"] / seconds).toFixed(1)} /s   (8 connections, ${seconds} s, bcrypt cost 10; ${failures(signIns)} failed)`,
);
console.log(
  `  GET /auth/v1/user: p50 ${getUser.latency.p50} ms, p99 ${getUser.latency.p99} ms, ${getUser.requests.average.toFixed(0)} req/s   (10 connections, ${seconds} s; ${failures(getUser)} failed)`,
);
if (failures(signIns) || failures(getUser)) process.exit(1);
