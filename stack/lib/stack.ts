import { existsSync, writeFileSync } from "node:fs";
import type { StackConfig } from "./config.ts";
import { formatEnv, isProjectStack, stackEnv } from "./env.ts";
import { applyAuthSchema, applyBaseSchema, applyMigrations, applyRealtimeMigrations, applySeed, migrationsUpToDate } from "./migrate.ts";
import path from "node:path";
import { dbDir, envLocalPath, packageDir } from "./paths.ts";
import { ensureSigningKeys } from "./signing-keys.ts";
import { type ServiceSpec, servicePid, startService, stopService } from "./services.ts";
import { requestClusterStop } from "./cluster-lock.ts";
import { type ChainStartReport, localChainId, removeChain, startChain, stopChain } from "./chain.ts";
import { clusterExists, dbUrl, initCluster, removeCluster, runningPid, startCluster, stopCluster } from "./postgres.ts";
import { debianPackages, ensureDebianPackages } from "./system.ts";

export type Log = (line: string) => void;

/** The API server: gateway and the Supabase-compatible services behind it. */
export function apiService(config: StackConfig): ServiceSpec {
  return {
    name: "api",
    entry: path.join(packageDir, "server", "main.ts"),
    ports: [
      { port: config.apiPort, what: "API gateway" },
      { port: config.inboxPort, what: "email inbox" },
      { port: config.smtpPort, what: "email inbox's SMTP" },
    ],
  };
}

export interface StartReport {
  created: boolean;
  database: "started" | "already running";
  api: "started" | "already running";
  chain: ChainStartReport["chain"];
  seconds: number;
}

/**
 * Brings the stack up: creates the cluster on first use (base schema, migrations, seed), or
 * starts the existing one and applies pending migrations; the local chain starts alongside
 * (the project's deploy script runs on a new one). Safe to call when already running. If anything fails, what
 * this call started is stopped again before the error surfaces.
 */
export async function startStack(config: StackConfig, log: Log): Promise<StartReport> {
  const began = performance.now();
  const keysCreated = ensureSigningKeys(config);
  if (keysCreated) {
    const shown = path.relative(process.cwd(), keysCreated);
    log(`Created a JWT signing key (ES256) in ${shown.startsWith("..") ? keysCreated : shown}: keep it out of git`);
  }
  await ensureDebianPackages([debianPackages.postgres], log);
  // Anvil has nothing to wait for, so it comes up while Postgres does.
  const chainStart = startChain(config, log);
  chainStart.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const created = !clusterExists();
  if (created) {
    log(
      `Creating the database cluster in ${path.relative(process.cwd(), dbDir).startsWith("..") ? dbDir : path.relative(process.cwd(), dbDir)}/ …`,
    );
    await initCluster(config);
  }
  let database: StartReport["database"];
  try {
    database = await startCluster(config);
  } catch (error) {
    await stopChainIfStarted(chainStart);
    throw error;
  }
  let api: StartReport["api"] = "already running";
  let chain: StartReport["chain"] = "already running";
  try {
    if (created) {
      await applyBaseSchema(config);
    }
    if ((await applyAuthSchema(config)) && !created) log("Updated Auth's schema (stack/db/auth-schema.sql)");
    if ((await applyRealtimeMigrations(config)) && !created) log("Updated Realtime's schema (stack/db/realtime-schema.sql)");
    if (created || !(await migrationsUpToDate(config))) {
      const migrated = await applyMigrations(config);
      if (/Applying migration/i.test(migrated)) log(migrated);
    }
    if (created && (await applySeed(config))) log("Seeded from supabase/seed.sql");
    chain = (await chainStart).chain;
    api = await startService(apiService(config));
  } catch (error) {
    await stopService("api");
    await stopChainIfStarted(chainStart);
    if (database === "started") await stopCluster();
    if (created) await removeCluster();
    throw error;
  }
  // Only the project's own stack speaks for the app: a private one (benchmarks, tests) stops when
  // its run ends, and a .env.local pointing at it would leave the app talking to nothing.
  if (isProjectStack() && !existsSync(envLocalPath)) {
    writeFileSync(
      envLocalPath,
      `# Written by \`npm run stack -- start\`: the local stack's URLs and keys.\n${formatEnv(await stackEnv(config))}\n`,
    );
    log("Wrote .env.local");
  }
  return { created, database, api, chain, seconds: (performance.now() - began) / 1000 };
}

async function stopChainIfStarted(chainStart: Promise<ChainStartReport>): Promise<void> {
  const settled = await Promise.allSettled([chainStart]);
  if (settled[0].status === "fulfilled" && settled[0].value.chain === "started") await stopChain();
}

/**
 * The stop request comes first, so the API's watchdog stands back from the moment the stop
 * begins; the API (and with it the watchdog) stops before the cluster is touched.
 */
export async function stopStack(): Promise<{ api: string; chain: string; database: string }> {
  requestClusterStop();
  const [api, chain] = await Promise.all([stopService("api"), stopChain()]);
  return { api, chain, database: await stopCluster() };
}

export async function resetStack(config: StackConfig, log: Log): Promise<StartReport> {
  log("Removing the database and the chain …");
  requestClusterStop();
  await stopService("api");
  await removeChain();
  await removeCluster();
  return await startStack(config, log);
}

export interface ServiceStatus {
  name: string;
  running: boolean;
  detail: string;
}

export function stackStatus(config: StackConfig): ServiceStatus[] {
  const pid = runningPid();
  return [
    {
      name: "database",
      running: Boolean(pid),
      detail: `${pid ? `${dbUrl(config)} (pid ${pid})` : clusterExists() ? "stopped" : "not created yet"}, data in ${dbDir}`,
    },
    service("api", `http://127.0.0.1:${config.apiPort}`),
    // The inbox (its API and its SMTP listener) is served by the API process, on ports of its own.
    service("inbox", `http://127.0.0.1:${config.inboxPort}`, "api"),
    service("smtp", `smtp://127.0.0.1:${config.smtpPort} (into the inbox)`, "api"),
    service("chain", `http://127.0.0.1:${config.chainPort} (chain id ${localChainId})`),
  ];
}

function service(name: string, where: string, processName = name): ServiceStatus {
  const pid = servicePid(processName);
  return { name, running: Boolean(pid), detail: pid ? `${where} (pid ${pid})` : "stopped" };
}
