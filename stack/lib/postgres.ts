import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { clearClusterStopRequest, clusterStopRequested, requestClusterStop, withClusterLock } from "./cluster-lock.ts";
import type { StackConfig } from "./config.ts";
import { sharedClusterRoot } from "./cluster-dir.ts";
import { dbDir, pgDataDir, pgLogPath, pgSocketDir, stateDir } from "./paths.ts";
import { assertPortFree } from "./ports.ts";
import { StackError, run } from "./run.ts";
import { type OsUser, databaseOsUser, pgBinDir } from "./system.ts";

/** Password of every login role in the stack, as with `supabase start`. Local development only. */
export const dbPassword = "postgres";

export function dbUrl(config: StackConfig, user = "postgres"): string {
  return `postgresql://${user}:${dbPassword}@127.0.0.1:${config.dbPort}/postgres`;
}

/** A connection as the cluster's bootstrap superuser over the private Unix socket. */
function adminClient(config: StackConfig, database = "postgres"): pg.Client {
  return new pg.Client({ host: pgSocketDir, port: config.dbPort, user: "supabase_admin", database });
}

function asUser(user: OsUser) {
  return { uid: user.uid, gid: user.gid, env: { ...process.env, LC_ALL: "C.UTF-8", HOME: dbDir } };
}

function pgBin(name: string): string {
  return path.join(pgBinDir, name);
}

/** The directories the stack created on the way to the cluster: inside the state dir, or the shared root. */
const clusterBase = dbDir.startsWith(sharedClusterRoot + path.sep) ? sharedClusterRoot : stateDir;

function makeOwnedDir(dir: string, user: OsUser): void {
  mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  // The cluster's OS user must be able to pass through the stack's own directories.
  for (let parent = path.dirname(dir); parent.startsWith(clusterBase); parent = path.dirname(parent)) {
    chmodSync(parent, statSync(parent).mode | 0o111);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
}

export function clusterExists(): boolean {
  return existsSync(path.join(pgDataDir, "PG_VERSION"));
}

/** Settings of the stack's cluster: loopback only, logical replication for Realtime, tuned for dev. */
function clusterSettings(config: StackConfig): string {
  return [
    `port = ${config.dbPort}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${pgSocketDir}'`,
    `wal_level = logical`,
    `max_replication_slots = 20`,
    `max_wal_senders = 20`,
    `max_connections = 200`,
    `shared_buffers = 128MB`,
    // a development database: durability against power loss (not against a crashed process) is traded for speed
    `fsync = off`,
    `full_page_writes = off`,
    `shared_preload_libraries = 'pg_stat_statements'`,
    `log_min_messages = warning`,
    `log_line_prefix = '%m [%p] %q%u@%d '`,
    `timezone = 'UTC'`,
    "",
  ].join("\n");
}

const hbaRules = [
  "# TYPE  DATABASE     USER  ADDRESS        METHOD",
  "local   all          all                  trust",
  "local   replication  all                  trust",
  "host    all          all   127.0.0.1/32   scram-sha-256",
  "host    replication  all   127.0.0.1/32   scram-sha-256",
  "",
].join("\n");

export async function initCluster(config: StackConfig): Promise<void> {
  const user = await databaseOsUser();
  makeOwnedDir(path.dirname(pgDataDir), user);
  makeOwnedDir(pgSocketDir, user);
  const pwFile = path.join(path.dirname(pgDataDir), "pwfile");
  writeFileSync(pwFile, `${dbPassword}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) chownSync(pwFile, user.uid, user.gid);
  const result = await run(
    pgBin("initdb"),
    [
      "-D",
      pgDataDir,
      "-U",
      "supabase_admin",
      `--pwfile=${pwFile}`,
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--no-sync",
    ],
    asUser(user),
  );
  rmSync(pwFile, { force: true });
  if (result.code !== 0) {
    if (result.stderr.includes("Permission denied")) {
      throw new StackError(
        `PostgreSQL runs as OS user "${user.name}", which cannot write ${path.dirname(pgDataDir)}.\n` +
          `Give it access (every parent directory needs o+x), or set STACK_DIR to a directory it can use.\n${result.stderr.trim()}`,
      );
    }
    throw new StackError(`initdb failed:\n${result.stderr.trim() || result.stdout.trim()}`);
  }
  writeFileSync(path.join(pgDataDir, "stack.conf"), clusterSettings(config));
  writeFileSync(path.join(pgDataDir, "pg_hba.conf"), hbaRules);
  const conf = path.join(pgDataDir, "postgresql.conf");
  writeFileSync(conf, `${readFileSync(conf, "utf8")}\ninclude 'stack.conf'\n`);
}

/** The PID in postmaster.pid when that process is alive; undefined otherwise. */
export function runningPid(): number | undefined {
  const pidFile = path.join(pgDataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
  return cmdline.includes("postgres") ? pid : undefined;
}

function logTail(lines = 15): string {
  return existsSync(pgLogPath) ? readFileSync(pgLogPath, "utf8").trim().split("\n").slice(-lines).join("\n") : "";
}

/**
 * A crash (kill -9, power loss) leaves postmaster.pid and the socket's lock file behind.
 * PostgreSQL replays its WAL on the next start once those stale files are gone.
 */
function removeCrashLeftovers(): void {
  rmSync(path.join(pgDataDir, "postmaster.pid"), { force: true });
  if (!existsSync(pgSocketDir)) return;
  for (const file of readdirSync(pgSocketDir)) {
    if (file.startsWith(".s.PGSQL.")) rmSync(path.join(pgSocketDir, file), { force: true });
  }
}

/** Starts the cluster (a deliberate start: it ends any stop request the watchdog was honouring). */
export async function startCluster(config: StackConfig): Promise<"started" | "already running"> {
  return await withClusterLock(async () => {
    clearClusterStopRequest();
    return await startClusterLocked(config);
  });
}

/**
 * The watchdog's restart after a crash: does nothing if a stop was requested meanwhile or someone
 * else (`npm run stack -- start`) already brought the cluster back.
 */
export async function restartCrashedCluster(config: StackConfig): Promise<"started" | "already running" | "stop requested"> {
  return await withClusterLock(async () => {
    if (clusterStopRequested() || !clusterExists()) return "stop requested";
    return await startClusterLocked(config);
  });
}

async function startClusterLocked(config: StackConfig): Promise<"started" | "already running"> {
  if (runningPid()) return "already running";
  const user = await databaseOsUser();
  removeCrashLeftovers();
  await assertPortFree(config.dbPort, "database");
  makeOwnedDir(pgSocketDir, user);
  writeFileSync(path.join(pgDataDir, "stack.conf"), clusterSettings(config));
  let result = await run(pgBin("pg_ctl"), ["start", "-D", pgDataDir, "-l", pgLogPath, "-w", "-t", "60", "-s"], asUser(user));
  // After a crash, backends of the dead postmaster may hold its shared memory for a moment.
  for (let attempt = 0; result.code !== 0 && attempt < 10 && /still in use/.test(logTail()); attempt++) {
    await new Promise((r) => setTimeout(r, 500));
    removeCrashLeftovers();
    result = await run(pgBin("pg_ctl"), ["start", "-D", pgDataDir, "-l", pgLogPath, "-w", "-t", "60", "-s"], asUser(user));
  }
  if (result.code !== 0) {
    throw new StackError(`PostgreSQL did not start (log: ${pgLogPath}):\n${logTail() || result.stderr.trim()}`);
  }
  return "started";
}

/** Stops the cluster; the watchdog will not restart it until the next deliberate start. */
export async function stopCluster(): Promise<"stopped" | "not running"> {
  requestClusterStop();
  return await withClusterLock(async () => {
    if (!runningPid()) return "not running";
    const user = await databaseOsUser();
    const result = await run(pgBin("pg_ctl"), ["stop", "-D", pgDataDir, "-m", "fast", "-w", "-t", "60", "-s"], asUser(user));
    if (result.code !== 0 && runningPid()) throw new StackError(`PostgreSQL did not stop: ${result.stderr.trim()}`);
    return "stopped";
  });
}

export async function removeCluster(): Promise<void> {
  requestClusterStop();
  await withClusterLock(async () => {
    await stopCluster();
    rmSync(path.dirname(pgDataDir), { recursive: true, force: true });
  });
}

/** Runs SQL (several statements allowed) as the bootstrap superuser, in one implicit transaction. */
export async function execAsAdmin(config: StackConfig, sql: string): Promise<void> {
  const client = adminClient(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
