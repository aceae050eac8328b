// The project's commands, run on Node 24 by scripts/run.sh: dev, test, stack, db:*, bench:*, chain:compile.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, type StackConfig } from "../stack/lib/config.ts";
import { binDir, dbTestsDir, repoRoot, supabaseCli } from "../stack/lib/paths.ts";
import { dbUrl } from "../stack/lib/postgres.ts";
import { StackError, run, runInherit } from "../stack/lib/run.ts";
import { apiService, stackStatus, startStack, stopStack } from "../stack/lib/stack.ts";
import { startService, stopService } from "../stack/lib/services.ts";
import { debianPackages, ensureDebianPackages } from "../stack/lib/system.ts";
import { databaseTypesPath, generateDatabaseTypes } from "../stack/lib/types.ts";

const bin = (name: string) => path.join(binDir, name);
process.env.NEXT_TELEMETRY_DISABLED = "1";
const log = (line: string) => console.log(line);

interface LayerResult {
  layer: string;
  passed: number;
  failed: number;
  ok: boolean;
}

/** Starts the stack unless it runs already; the returned function stops it only if we started it. */
async function withStack(config: StackConfig): Promise<() => Promise<void>> {
  const running = stackStatus(config).every((service) => service.running);
  if (running) return async () => undefined;
  const report = await startStack(config, log);
  log(`Local stack ready in ${report.seconds.toFixed(2)} s`);
  return async () => {
    await stopStack();
  };
}

async function pgTap(config: StackConfig): Promise<LayerResult> {
  const files = readdirSync(dbTestsDir).filter((file) => file.endsWith(".sql")).sort();
  const result = await run("pg_prove", ["--dbname", dbUrl(config), "--ext", ".sql", ...files.map((f) => path.join(dbTestsDir, f))], { cwd: repoRoot });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  const total = Number(/Tests=(\d+)/.exec(result.stdout)?.[1] ?? 0);
  const failedMatch = /Failed (\d+)\/(\d+) subtests/g;
  let failed = 0;
  for (const match of result.stdout.matchAll(failedMatch)) failed += Number(match[1]);
  if (result.code !== 0 && failed === 0) failed = 1;
  return { layer: "pgTAP", passed: total - failed, failed, ok: result.code === 0 && total > 0 };
}

async function typecheck(): Promise<LayerResult> {
  const result = await run(bin("tsc"), ["--noEmit", "-p", "tsconfig.json"], { cwd: repoRoot });
  const errors = (result.stdout.match(/error TS\d+/g) ?? []).length;
  if (result.code !== 0) process.stdout.write(result.stdout + result.stderr);
  return { layer: "typecheck (tsc)", passed: result.code === 0 ? 1 : 0, failed: result.code === 0 ? 0 : Math.max(errors, 1), ok: result.code === 0 };
}

async function vitest(): Promise<LayerResult> {
  const reportFile = path.join(tmpdir(), `cuepoint-vitest-${process.pid}.json`);
  const code = await runInherit(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`], { cwd: repoRoot });
  let passed = 0;
  let failed = 0;
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as { numPassedTests: number; numFailedTests: number };
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    rmSync(reportFile, { force: true });
  }
  if (code !== 0 && failed === 0) failed = 1;
  return { layer: "vitest", passed, failed, ok: code === 0 && passed > 0 };
}

async function advisors(config: StackConfig): Promise<LayerResult> {
  const result = await run(
    supabaseCli,
    ["db", "advisors", `--remote=${dbUrl(config)}`, "--yes", "--type", "security", "--level", "info", "--fail-on", "info", "--workdir", repoRoot],
    { cwd: repoRoot, env: { ...process.env, PGSSLMODE: "disable", SUPABASE_TELEMETRY_DISABLED: "1" } },
  );
  const output = `${result.stdout}${result.stderr}`.trim();
  const ok = result.code === 0 && /No issues found/i.test(output);
  console.log(output);
  return { layer: "advisors (security)", passed: ok ? 1 : 0, failed: ok ? 0 : 1, ok };
}

/** The e2e build's thirdweb client ID: wallet sign-in with an injected wallet needs one, and no network. */
const e2eThirdwebClientId = "cuepoint-e2e-local";
/** Access tokens live this long during e2e, so a test can watch supabase-js refresh one. */
const e2eJwtExpirySeconds = "120";

/** Runs `body` with the API restarted under `env`, then restarts it as it was. */
async function withApiEnv<T>(config: StackConfig, env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  await stopService("api");
  await startService(apiService(config), env);
  try {
    return await body();
  } finally {
    await stopService("api");
    await startService(apiService(config));
  }
}

async function e2e(config: StackConfig): Promise<LayerResult | undefined> {
  const specs = existsSync(path.join(repoRoot, "e2e")) ? readdirSync(path.join(repoRoot, "e2e")).filter((f) => f.endsWith(".spec.ts")) : [];
  if (specs.length === 0) return undefined;
  log("Building the app for end-to-end tests (next build) …");
  const buildEnv = { ...process.env, NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || e2eThirdwebClientId };
  if ((await runInherit(bin("next"), ["build"], { cwd: repoRoot, env: buildEnv })) !== 0) {
    return { layer: "e2e (Playwright)", passed: 0, failed: 1, ok: false };
  }
  const reportFile = path.join(tmpdir(), `cuepoint-playwright-${process.pid}.json`);
  const code = await withApiEnv(config, { STACK_AUTH_JWT_EXPIRY: e2eJwtExpirySeconds }, () =>
    runInherit(bin("playwright"), ["test", "--reporter=list,json"], {
      cwd: repoRoot,
      env: { ...buildEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile },
    }),
  );
  let passed = 0;
  let failed = 0;
  if (existsSync(reportFile)) {
    const stats = (JSON.parse(readFileSync(reportFile, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } }).stats;
    passed = stats.expected + stats.flaky;
    failed = stats.unexpected;
    rmSync(reportFile, { force: true });
  }
  if (code !== 0 && failed === 0) failed = 1;
  return { layer: "e2e (Playwright)", passed, failed, ok: code === 0 && passed > 0 };
}

async function test(): Promise<number> {
  await ensureDebianPackages(Object.values(debianPackages), log);
  const config = loadConfig();
  const stop = await withStack(config);
  const results: LayerResult[] = [];
  try {
    results.push(await typecheck());
    results.push(await vitest());
    results.push(await pgTap(config));
    results.push(await advisors(config));
    const endToEnd = await e2e(config);
    if (endToEnd) results.push(endToEnd);
  } finally {
    await stop();
  }
  log("\nSummary");
  for (const r of results) log(`  ${r.ok ? "ok  " : "FAIL"} ${r.layer.padEnd(22)} ${r.passed} passed, ${r.failed} failed`);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  log(`\n${passed} passed, ${failed} failed`);
  return results.every((r) => r.ok) ? 0 : 1;
}

async function dev(): Promise<number> {
  const config = loadConfig();
  const report = await startStack(config, log);
  log(`Local stack ready in ${report.seconds.toFixed(2)} s — API http://127.0.0.1:${config.apiPort}, database ${dbUrl(config)}`);
  log("The stack keeps running after you stop the app; `npm run stack -- stop` stops it.\n");
  return await runInherit(bin("next"), ["dev", ...process.argv.slice(3)], { cwd: repoRoot });
}

async function dbTypes(): Promise<number> {
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    writeFileSync(databaseTypesPath, await generateDatabaseTypes(config));
    log(`Wrote ${path.relative(repoRoot, databaseTypesPath)}`);
  } finally {
    await stop();
  }
  return 0;
}

async function dbTest(): Promise<number> {
  await ensureDebianPackages([debianPackages.postgres, debianPackages.pgtap, debianPackages.pgProve, debianPackages.plpgsqlCheck], log);
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    return (await pgTap(config)).ok ? 0 : 1;
  } finally {
    await stop();
  }
}

async function dbAdvisors(): Promise<number> {
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    return (await advisors(config)).ok ? 0 : 1;
  } finally {
    await stop();
  }
}

const tasks: Record<string, () => Promise<number>> = {
  dev,
  test,
  stack: () => runInherit(process.execPath, [path.join(repoRoot, "stack", "cli.ts"), ...process.argv.slice(3)], { cwd: repoRoot }),
  "db:types": dbTypes,
  "db:test": dbTest,
  "db:advisors": dbAdvisors,
  "bench:web": async () => {
    const config = loadConfig();
    const stop = await withStack(config);
    try {
      return await runInherit(process.execPath, [path.join(repoRoot, "scripts", "bench-web.ts")], { cwd: repoRoot });
    } finally {
      await stop();
    }
  },
  "bench:stack": () => runInherit(process.execPath, [path.join(repoRoot, "stack", "bench", "index.ts")], { cwd: repoRoot }),
  "chain:compile": async () => {
    const { writeArtifacts } = await import("../stack/chain/compile.ts");
    log(`Wrote ${path.relative(repoRoot, writeArtifacts())}`);
    return 0;
  },
};

const task = tasks[process.argv[2] ?? ""];
if (!task) {
  console.error(`Unknown task "${process.argv[2] ?? ""}". Tasks: ${Object.keys(tasks).join(", ")}`);
  process.exit(2);
}
task().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof StackError ? `error: ${error.message}` : error);
    process.exit(1);
  },
);
