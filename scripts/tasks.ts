// The project's commands, run on Node 24 by scripts/run.sh: dev, test, lint, knip, stack, db:* (types, schema, test, advisors), notifications:digest, media:waveforms, bench:*, chain:compile, oembed:local, config:check.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  StackError,
  apiService,
  dbUrl,
  loadConfig,
  run,
  runInherit,
  stackStatus,
  startService,
  startStack,
  stopService,
  stopStack,
  type StackConfig,
} from "@cuepoint/stack";
import { databaseTypesPath, generateDatabaseTypes } from "@cuepoint/stack/db-types";
import { binDir, dbTestsDir, packageDir, repoRoot, supabaseCli } from "@cuepoint/stack/paths";
import { debianPackages, ensureDebianPackages } from "@cuepoint/stack/system";
import * as prettier from "prettier";
import { describeRun, digestEvery, sendDigests } from "./notification-digest.ts";
import { checkPushedConfig } from "./pushed-config.ts";
import { dumpSchema, schemaDumpPath } from "./schema-dump.ts";
import { oembedProvidersEnv, oembedProvidersPort } from "../tests/helpers/oembed-providers.ts";

const bin = (name: string) => path.join(binDir, name);
process.env.NEXT_TELEMETRY_DISABLED = "1";
const log = (line: string) => console.log(line);

interface LayerResult {
  layer: string;
  passed: number;
  failed: number;
  ok: boolean;
  /** Each failed test's name and the start of its error, repeated under the summary (a CI log's tail is often all one sees). */
  failures?: string[];
  /** Tests that failed, then passed when run again (CI retries e2e once): named with the first try's error. */
  flaky?: string[];
}

/** A failure in a few lines: the test's name, then its error's first lines without colours. */
function failureLines(name: string, message: string): string {
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  const lines = plain
    .split("\n")
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(0, 12);
  return [name, ...lines.map((line) => `    ${line.slice(0, 300)}`)].join("\n");
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
  const files = readdirSync(dbTestsDir)
    .filter((file) => file.endsWith(".sql"))
    .sort();
  const result = await run("pg_prove", ["--dbname", dbUrl(config), "--ext", ".sql", ...files.map((f) => path.join(dbTestsDir, f))], {
    cwd: repoRoot,
  });
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
  return {
    layer: "typecheck (tsc)",
    passed: result.code === 0 ? 1 : 0,
    failed: result.code === 0 ? 0 : Math.max(errors, 1),
    ok: result.code === 0,
  };
}

interface EslintFileResult {
  filePath: string;
  messages: { ruleId: string | null; severity: number; message: string; line?: number; column?: number }[];
}

/** ESLint over the repository (eslint.config.mjs), zero warnings allowed: one count per file linted. */
async function lint(): Promise<LayerResult> {
  const reportFile = path.join(tmpdir(), `cuepoint-eslint-${process.pid}.json`);
  const result = await run(bin("eslint"), ["--max-warnings", "0", "--format", "json", "--output-file", reportFile, "."], { cwd: repoRoot });
  let files: EslintFileResult[] = [];
  if (existsSync(reportFile)) {
    files = JSON.parse(readFileSync(reportFile, "utf8")) as EslintFileResult[];
    rmSync(reportFile, { force: true });
  }
  const problems = files.flatMap((file) =>
    file.messages.map(
      (m) =>
        `${path.relative(repoRoot, file.filePath)}:${m.line ?? 0}:${m.column ?? 0}  ${m.severity === 2 ? "error" : "warning"}  ${m.message}  ${m.ruleId ?? ""}`,
    ),
  );
  for (const problem of problems) log(problem);
  if (result.code !== 0 && problems.length === 0) process.stdout.write(result.stdout + result.stderr);
  const failed = files.filter((file) => file.messages.length > 0).length;
  const ok = result.code === 0 && files.length > 0;
  log(`ESLint: ${files.length} files linted, ${problems.length} problems`);
  return { layer: "lint (ESLint)", passed: files.length - failed, failed: ok ? 0 : Math.max(failed, 1), ok };
}

/** Prettier (.prettierrc.json, .prettierignore): every file as `npm run format` writes it; one count per file checked. */
async function formatting(): Promise<LayerResult> {
  const files = (await run("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot })).stdout.split("\n");
  let checked = 0;
  const unformatted: string[] = [];
  for (const file of files.filter(Boolean)) {
    const filepath = path.join(repoRoot, file);
    if (!existsSync(filepath)) continue; // deleted in the work tree, not yet in the index
    const info = await prettier.getFileInfo(filepath, { ignorePath: path.join(repoRoot, ".prettierignore") });
    if (info.ignored || !info.inferredParser) continue;
    const options = await prettier.resolveConfig(filepath);
    checked++;
    if (!(await prettier.check(readFileSync(filepath, "utf8"), { ...options, filepath }))) unformatted.push(file);
  }
  for (const file of unformatted) log(`not formatted: ${file}`);
  const ok = checked > 0 && unformatted.length === 0;
  log(
    `Prettier: ${checked} files checked, ${unformatted.length} not formatted${unformatted.length ? " (`npm run format` writes them)" : ""}`,
  );
  return { layer: "format (Prettier)", passed: checked - unformatted.length, failed: ok ? 0 : Math.max(unformatted.length, 1), ok };
}

/** The folders the layering rules (.dependency-cruiser.mjs) look at: all code but the edge functions' Deno. */
const cruisedPaths = ["app", "components", "lib", "types", "stack", "chain", "scripts", "tests", "e2e", "proxy.ts"];

interface CruiseReport {
  summary: {
    violations: { type: string; from: string; to: string; rule: { name: string }; cycle?: { name: string }[] }[];
    totalCruised: number;
  };
}

/** Layers point down and nothing imports in a circle (docs/architecture.md): one count per module cruised. */
async function layering(): Promise<LayerResult> {
  const paths = cruisedPaths.filter((p) => existsSync(path.join(repoRoot, p)));
  const result = await run(bin("depcruise"), [...paths, "--config", ".dependency-cruiser.mjs", "--output-type", "json"], { cwd: repoRoot });
  let report: CruiseReport | undefined;
  try {
    report = JSON.parse(result.stdout) as CruiseReport;
  } catch {
    process.stdout.write(result.stdout + result.stderr);
  }
  const violations = report?.summary.violations ?? [];
  for (const v of violations) {
    const chain = v.cycle?.length ? [v.from, ...v.cycle.map((step) => step.name)].join(" → ") : `${v.from} → ${v.to}`;
    log(`${v.rule.name}: ${chain}`);
  }
  const modules = report?.summary.totalCruised ?? 0;
  const ok = report !== undefined && violations.length === 0 && modules > 0;
  const circles = violations.filter((v) => v.rule.name === "no-circular").length;
  log(`Layering: ${modules} modules cruised, ${circles} import circles, ${violations.length - circles} upward or forbidden imports`);
  return { layer: "layering (depcruise)", passed: ok ? modules : 0, failed: ok ? 0 : Math.max(violations.length, 1), ok };
}

/** knip: every direct dependency (root and workspace packages) is used, everything used is declared. */
async function dependencies(): Promise<LayerResult> {
  const result = await run(bin("knip"), ["--no-progress", "--dependencies"], { cwd: repoRoot });
  const declared = ["package.json", path.join("stack", "package.json")].reduce((sum, file) => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, file), "utf8")) as Record<string, Record<string, string> | undefined>;
    return sum + Object.keys(manifest.dependencies ?? {}).length + Object.keys(manifest.devDependencies ?? {}).length;
  }, 0);
  const output = `${result.stdout}${result.stderr}`.trim();
  const ok = result.code === 0;
  if (output) log(output);
  const issues = (output.match(/^\S.*\S\s+\S+:\d+:\d+\s*$/gm) ?? []).length;
  log(`knip: ${declared} direct dependencies declared, ${ok ? "all used and nothing undeclared" : "see above"}`);
  return { layer: "dependencies (knip)", passed: ok ? declared : 0, failed: ok ? 0 : Math.max(issues, 1), ok };
}

interface VitestReport {
  testResults: { name: string; assertionResults: { status: string; fullName: string; failureMessages?: string[] }[] }[];
}

/**
 * One vitest run for every project; the summary reports the app's suites (tests/) and the local
 * backend's own suites (the stack package's tests) as separate layers.
 */
async function vitest(): Promise<LayerResult[]> {
  const reportFile = path.join(tmpdir(), `cuepoint-vitest-${process.pid}.json`);
  const code = await runInherit(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`], {
    cwd: repoRoot,
  });
  const layers = { app: { passed: 0, failed: 0, failures: [] as string[] }, stack: { passed: 0, failed: 0, failures: [] as string[] } };
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as VitestReport;
    for (const file of report.testResults) {
      const layer = file.name.startsWith(packageDir + path.sep) ? layers.stack : layers.app;
      for (const test of file.assertionResults) {
        if (test.status === "passed") layer.passed++;
        else if (test.status === "failed") {
          layer.failed++;
          layer.failures.push(
            failureLines(`${path.relative(repoRoot, file.name)} › ${test.fullName}`, test.failureMessages?.join("\n") ?? ""),
          );
        }
      }
    }
    rmSync(reportFile, { force: true });
  }
  // A failing exit with no failed test is charged to the app layer; otherwise each layer answers
  // only for its own tests (one run's exit code covers both).
  if (code !== 0 && layers.app.failed + layers.stack.failed === 0) layers.app.failed = 1;
  return [
    { layer: "vitest (app)", ...layers.app, ok: layers.app.passed > 0 && layers.app.failed === 0 },
    { layer: "vitest (stack)", ...layers.stack, ok: layers.stack.passed > 0 && layers.stack.failed === 0 },
  ];
}

async function advisors(config: StackConfig): Promise<LayerResult> {
  const result = await run(
    supabaseCli,
    [
      "db",
      "advisors",
      `--remote=${dbUrl(config)}`,
      "--yes",
      "--type",
      "security",
      "--level",
      "info",
      "--fail-on",
      "info",
      "--workdir",
      repoRoot,
    ],
    { cwd: repoRoot, env: { ...process.env, PGSSLMODE: "disable", SUPABASE_TELEMETRY_DISABLED: "1" } },
  );
  const output = `${result.stdout}${result.stderr}`.trim();
  const ok = result.code === 0 && /No issues found/i.test(output);
  console.log(output);
  return { layer: "advisors (security)", passed: ok ? 1 : 0, failed: ok ? 0 : 1, ok };
}

/** The e2e build's thirdweb client ID: wallet sign-in with an injected wallet needs one, and no network. */
const e2eThirdwebClientId = "cuepoint-e2e-local";
/**
 * Access tokens live this long during e2e, so a test can watch supabase-js refresh one; longer than
 * the 120 s before expiry at which a page stops sending its cookies' token and loads the session
 * client (lib/supabase/access-token.ts), so pages opened early in a token's life take both paths.
 */
const e2eJwtExpirySeconds = "150";

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

interface PlaywrightSuite {
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
}
interface PlaywrightReport extends PlaywrightSuite {
  stats: { expected: number; unexpected: number; flaky: number };
}

/** The tests of one outcome ("unexpected": failed; "flaky": failed, then passed on a retry), each with its first error. */
function playwrightTests(suite: PlaywrightSuite, status: "unexpected" | "flaky"): string[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests
      .filter((test) => test.status === status)
      .map((test) =>
        failureLines(
          `${spec.file}:${spec.line} › ${spec.title}`,
          test.results.find((result) => result.error?.message)?.error?.message ?? "",
        ),
      ),
  );
  return [...own, ...(suite.suites ?? []).flatMap((child) => playwrightTests(child, status))];
}

/** Builds the app and runs Playwright (all specs, or `args` — a spec, `--repeat-each=10`, `-g …`) with the API as e2e needs it. */
async function e2e(config: StackConfig, args: string[] = []): Promise<LayerResult | undefined> {
  const specs = existsSync(path.join(repoRoot, "e2e")) ? readdirSync(path.join(repoRoot, "e2e")).filter((f) => f.endsWith(".spec.ts")) : [];
  if (specs.length === 0) return undefined;
  log("Building the app for end-to-end tests (next build) …");
  const buildEnv = { ...process.env, NEXT_PUBLIC_THIRDWEB_CLIENT_ID: process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID || e2eThirdwebClientId };
  if ((await runInherit(bin("next"), ["build"], { cwd: repoRoot, env: buildEnv })) !== 0) {
    return { layer: "e2e (Playwright)", passed: 0, failed: 1, ok: false };
  }
  const reportFile = path.join(tmpdir(), `cuepoint-playwright-${process.pid}.json`);
  // Email links go to site_url: here, the app under test. The embed function asks the local oEmbed
  // providers Playwright starts (playwright.config.ts), never the real ones.
  const siteUrl = `http://localhost:${process.env.E2E_PORT ?? 3100}`;
  const apiEnv = {
    STACK_AUTH_JWT_EXPIRY: e2eJwtExpirySeconds,
    STACK_AUTH_SITE_URL: siteUrl,
    ...oembedProvidersEnv(`http://127.0.0.1:${oembedProvidersPort()}`),
  };
  const code = await withApiEnv(config, apiEnv, () =>
    runInherit(bin("playwright"), ["test", "--reporter=list,json", ...args], {
      cwd: repoRoot,
      env: { ...buildEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile },
    }),
  );
  let passed = 0;
  let failed = 0;
  let failures: string[] = [];
  let flaky: string[] = [];
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as PlaywrightReport;
    passed = report.stats.expected + report.stats.flaky;
    failed = report.stats.unexpected;
    failures = playwrightTests(report, "unexpected");
    flaky = playwrightTests(report, "flaky");
    rmSync(reportFile, { force: true });
  }
  if (code !== 0 && failed === 0) failed = 1;
  return { layer: "e2e (Playwright)", passed, failed, ok: code === 0 && passed > 0, failures, flaky };
}

function logFailures(results: LayerResult[]): void {
  const listed = (lines: string[]) => lines.map((line) => `  ${line}`).join("\n");
  const flaky = results.flatMap((r) => r.flaky ?? []);
  if (flaky.length) log(`\nFlaky — failed, then passed when run again (fix these):\n${listed(flaky)}`);
  const failures = results.flatMap((r) => r.failures ?? []);
  if (failures.length) log(`\nFailed:\n${listed(failures)}`);
}

async function test(): Promise<number> {
  await ensureDebianPackages(Object.values(debianPackages), log);
  const config = loadConfig();
  const stop = await withStack(config);
  const results: LayerResult[] = [];
  try {
    results.push(await typecheck());
    results.push(await lint());
    results.push(await formatting());
    results.push(await layering());
    results.push(await dependencies());
    results.push(...(await vitest()));
    results.push(await pgTap(config));
    results.push(await advisors(config));
    const endToEnd = await e2e(config);
    if (endToEnd) results.push(endToEnd);
  } finally {
    await stop();
  }
  log("\nSummary");
  for (const r of results)
    log(
      `  ${r.ok ? "ok  " : "FAIL"} ${r.layer.padEnd(22)} ${r.passed} passed, ${r.failed} failed${r.flaky?.length ? ` (${r.flaky.length} of the passed flaky)` : ""}`,
    );
  logFailures(results);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  log(`\n${passed} passed, ${failed} failed`);
  return results.every((r) => r.ok) ? 0 : 1;
}

/** `npm run test:e2e -- [playwright args]`: the end-to-end layer alone, with the stack up. */
async function endToEndOnly(): Promise<number> {
  await ensureDebianPackages(Object.values(debianPackages), log);
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    const result = await e2e(config, process.argv.slice(3));
    if (result) logFailures([result]);
    if (result) log(`\n${result.passed} passed, ${result.failed} failed`);
    return result?.ok ? 0 : 1;
  } finally {
    await stop();
  }
}

async function dev(): Promise<number> {
  const config = loadConfig();
  const report = await startStack(config, log);
  log(`Local stack ready in ${report.seconds.toFixed(2)} s — API http://127.0.0.1:${config.apiPort}, database ${dbUrl(config)}`);
  log("The stack keeps running after you stop the app; `npm run stack -- stop` stops it.\n");
  const stopDigests = digestEvery(config, 5, log);
  try {
    return await runInherit(bin("next"), ["dev", ...process.argv.slice(3)], { cwd: repoRoot });
  } finally {
    stopDigests();
  }
}

/** `npm run notifications:digest [-- --user <id>]`: digest emails to everyone due now (or one person), once. */
async function notificationsDigest(): Promise<number> {
  const args = process.argv.slice(3);
  const userAt = args.indexOf("--user");
  const userId = userAt >= 0 ? args[userAt + 1] : undefined;
  if (userAt >= 0 && !userId) {
    console.error("Name the person: npm run notifications:digest -- --user <user id>");
    return 2;
  }
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    log(describeRun(await sendDigests(config, userId)));
    log(`Read them in the inbox: http://127.0.0.1:${config.inboxPort}`);
    return 0;
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await stop();
  }
}

/**
 * `npm run media:waveforms [-- --room <id>]`: waveforms for the uploads without one (scripts/media-waveforms.ts),
 * on the local stack, or on the project that NEXT_PUBLIC_SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY name.
 */
async function mediaWaveforms(): Promise<number> {
  const [{ createClient }, { serviceRoleKey }, { backfillWaveforms, describeBackfill }, { openWaveformDecoder }] = await Promise.all([
    import("@supabase/supabase-js"),
    import("@cuepoint/stack/keys"),
    import("./media-waveforms.ts"),
    import("./waveform-decoder.ts"),
  ]);
  const hostedUrl = process.env.NEXT_PUBLIC_SUPABASE_URL;
  const hostedKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
  const config = loadConfig();
  const stop = hostedUrl && hostedKey ? async () => undefined : await withStack(config);
  const admin = createClient(hostedUrl && hostedKey ? hostedUrl : `http://127.0.0.1:${config.apiPort}`, hostedKey || serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const decoder = await openWaveformDecoder();
  try {
    const roomAt = process.argv.indexOf("--room");
    const roomId = roomAt >= 0 ? process.argv[roomAt + 1] : undefined;
    log(describeBackfill(await backfillWaveforms(admin, decoder, { log, roomId })));
    return 0;
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await decoder.close();
    await stop();
  }
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

async function dbSchema(): Promise<number> {
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    writeFileSync(schemaDumpPath, await dumpSchema(config));
    log(`Wrote ${path.relative(repoRoot, schemaDumpPath)}`);
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

/** Runs scripts/`script` with the stack up (started and then stopped if it was not); a bench that drives a browser gets Chromium installed first. */
async function bench(script: string, { browser = false } = {}): Promise<number> {
  if (browser) await ensureDebianPackages([debianPackages.chromium, debianPackages.emojiFont], log);
  const config = loadConfig();
  const stop = await withStack(config);
  try {
    return await runInherit(process.execPath, [path.join(repoRoot, "scripts", script), ...process.argv.slice(3)], { cwd: repoRoot });
  } finally {
    await stop();
  }
}

const tasks: Record<string, () => Promise<number>> = {
  dev,
  test,
  "test:e2e": endToEndOnly,
  stack: () => runInherit(process.execPath, [path.join(packageDir, "cli.ts"), ...process.argv.slice(3)], { cwd: repoRoot }),
  lint: async () => {
    const results = [await lint(), await formatting(), await layering()];
    return results.every((r) => r.ok) ? 0 : 1;
  },
  format: () => runInherit(bin("prettier"), ["--write", "--log-level", "warn", "."], { cwd: repoRoot }),
  knip: async () => ((await dependencies()).ok ? 0 : 1),
  "db:types": dbTypes,
  "db:schema": dbSchema,
  "db:test": dbTest,
  "db:advisors": dbAdvisors,
  "notifications:digest": notificationsDigest,
  "media:waveforms": mediaWaveforms,
  "bench:web": () => bench("bench-web.ts", { browser: true }),
  "bench:auth": () => bench("bench-auth.ts"),
  "bench:rooms": () => bench("bench-rooms.ts"),
  "bench:chain": () => bench("bench-chain.ts"),
  "bench:posts": () => bench("bench-posts.ts"),
  "bench:moments": () => bench("bench-moments.ts"),
  "bench:sync": () => bench("bench-sync.ts", { browser: true }),
  "bench:notifications": () => bench("bench-notifications.ts"),
  "bench:stack": () =>
    runInherit(process.execPath, [path.join(packageDir, "bench", "index.ts"), ...process.argv.slice(3)], { cwd: repoRoot }),
  "config:check": async () => checkPushedConfig(),
  "oembed:local": () =>
    runInherit(process.execPath, [path.join(repoRoot, "tests", "helpers", "oembed-providers.ts"), ...process.argv.slice(3)], {
      cwd: repoRoot,
    }),
  "chain:compile": () => runInherit(process.execPath, [path.join(repoRoot, "chain", "compile.ts"), "--write"], { cwd: repoRoot }),
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
