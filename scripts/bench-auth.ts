// `npm run bench:auth [--no-build]`: signed-in server renders of /account per second on the
// production build, with the session's access token signed two ways in one run:
// - legacy HS256 (the JWT secret): supabase-js cannot verify it locally, so getClaims() asks Auth
//   (GET /auth/v1/user) in the proxy and again in the render, as every view did before the project
//   moved to signing keys;
// - ES256 (the project's signing key): getClaims() verifies it against the cached JWKS, no Auth.
// Rounds alternate between the two so both see the same machine load. It also counts the requests
// each render made to /auth/v1, from the stack's gateway access log. Port: BENCH_AUTH_PORT (3400).
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { loadConfig } from "@cuepoint/stack";
import { secretKey, signHs256 } from "@cuepoint/stack/keys";
import { binDir, logsDir, repoRoot } from "@cuepoint/stack/paths";
import { freshSessionCookies } from "../tests/helpers/session-cookies.ts";
import { startNext } from "./bench-web/server.ts";

const port = Number(process.env.BENCH_AUTH_PORT ?? 3400);
const roundSeconds = Number(process.env.BENCH_AUTH_ROUND_SECONDS ?? 8);
const rounds = 3;
const concurrency = 4;
const appEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const accessLog = path.join(logsDir, "access.log");

interface Round {
  renders: number;
  seconds: number;
  authRequests: number;
  latencies: number[];
}

/** Renders /account as fast as `concurrency` clients can for `seconds`; every answer must be the signed-in page. */
async function measure(origin: string, cookie: string, email: string, seconds: number): Promise<Round> {
  const logStart = statSync(accessLog).size;
  const latencies: number[] = [];
  const began = performance.now();
  const until = began + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      const response = await fetch(`${origin}/account`, { headers: { cookie }, redirect: "manual" });
      const html = await response.text();
      if (response.status !== 200 || !html.includes(email))
        throw new Error(`/account did not render signed in (status ${response.status})`);
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (performance.now() - began) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const logged = readFileSync(accessLog).subarray(logStart).toString("utf8");
  const authRequests = (logged.match(/"[A-Z]+ \/auth\/v1\//g) ?? []).length;
  return { renders: latencies.length, seconds: elapsed, authRequests, latencies };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

async function main(): Promise<void> {
  if (
    !process.argv.includes("--no-build") &&
    spawnSync(path.join(binDir, "next"), ["build"], { cwd: repoRoot, stdio: "inherit", env: appEnv }).status !== 0
  )
    process.exit(1);
  const config = loadConfig();
  const apiUrl = `http://127.0.0.1:${config.apiPort}`;
  const admin = createClient(apiUrl, secretKey, { auth: { persistSession: false } });
  const email = `bench-auth-${Date.now()}@bench.cuepoint.test`;
  const user = { email, password: "bench-password-123" };
  const created = await admin.auth.admin.createUser({ ...user, email_confirm: true });
  if (created.error) throw new Error(`Could not create the bench's account: ${created.error.message}`);

  const cookieHeader = (cookies: { name: string; value: string }[]) => cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
  const modes = [
    {
      name: "legacy HS256 token (getClaims asks Auth)",
      cookie: cookieHeader(await freshSessionCookies(apiUrl, user, (claims) => signHs256(claims))),
      runs: [] as Round[],
    },
    {
      name: "ES256 signing key (getClaims verifies locally)",
      cookie: cookieHeader(await freshSessionCookies(apiUrl, user)),
      runs: [] as Round[],
    },
  ];

  const server = await startNext("start", port, appEnv);
  const loadBefore = loadavg()[0];
  try {
    // warm-up: compiled routes, connection pools, the JWKS fetch
    for (const mode of modes) await measure(server.origin, mode.cookie, email, 2);
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 === 0 ? modes : [...modes].reverse())
        mode.runs.push(await measure(server.origin, mode.cookie, email, roundSeconds));
    }
  } finally {
    server.stop();
    await admin.auth.admin.deleteUser(created.data.user.id);
  }

  console.log(
    `\nSigned-in server renders of /account (production build, ${concurrency} concurrent clients, ${rounds} alternating rounds of ${roundSeconds} s per mode):`,
  );
  const rates: number[] = [];
  for (const mode of modes) {
    const renders = mode.runs.reduce((sum, run) => sum + run.renders, 0);
    const seconds = mode.runs.reduce((sum, run) => sum + run.seconds, 0);
    const authRequests = mode.runs.reduce((sum, run) => sum + run.authRequests, 0);
    const latencies = mode.runs.flatMap((run) => run.latencies);
    rates.push(renders / seconds);
    console.log(
      `  ${mode.name.padEnd(48)} ${(renders / seconds).toFixed(1).padStart(6)} renders/s   p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms   ` +
        `${(authRequests / renders).toFixed(2)} requests to /auth/v1 per render   (rounds: ${mode.runs.map((run) => (run.renders / run.seconds).toFixed(1)).join(", ")})`,
    );
  }
  console.log(
    `  ES256 / legacy: ×${(rates[1] / rates[0]).toFixed(2)}   (load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after, on ${cpus().length} cores)`,
  );
}

await main();
