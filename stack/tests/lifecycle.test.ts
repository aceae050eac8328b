// `npm run stack -- …` as a developer uses it, on a private cluster (own STACK_DIR and ports)
// so it never disturbs the stack the other suites use.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { clusterDir } from "../lib/cluster-dir.ts";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const stackDir = mkdtempSync(path.join(repoRoot, ".stack-lifecycle-"));
const ports = { STACK_API_PORT: "61321", STACK_DB_PORT: "61322", STACK_INBOX_PORT: "61324", STACK_CHAIN_PORT: "61545" };
const dbUrl = `postgresql://postgres:postgres@127.0.0.1:${ports.STACK_DB_PORT}/postgres`;

// The API's Postgres watchdog (tested in realtime-faults) waits this long before restarting a
// killed cluster, so here it is always `npm run stack -- start` that recovers one.
const watchdogGrace = { STACK_DB_WATCHDOG_GRACE_MS: "600000" };

function stack(args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "stack", "cli.ts"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, STACK_DIR: stackDir, ...ports, ...watchdogGrace, ...extraEnv },
    encoding: "utf8",
    timeout: 120_000,
  });
  const out = `${result.stdout}${result.stderr}`;
  // a failed expectation on the exit code shows what the command printed (and the API's log tail)
  const why = `npm run stack -- ${args.join(" ")} exited ${result.status}${result.signal ? ` (${result.signal})` : ""}:\n${out}${apiLogTail()}`;
  return { code: result.status, out, why };
}

function apiLogTail(): string {
  const log = path.join(stackDir, "logs", "api.log");
  return existsSync(log) ? `\n--- api.log (tail) ---\n${readFileSync(log, "utf8").trim().split("\n").slice(-15).join("\n")}` : "";
}

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function postmasterPid(): number {
  return Number(readFileSync(path.join(clusterDir(stackDir), "data", "postmaster.pid"), "utf8").split("\n")[0]);
}

afterAll(() => {
  stack(["stop"]);
  rmSync(stackDir, { recursive: true, force: true });
});

// each command spawns Node and pg_ctl; on a loaded machine a cold `start` alone can take a minute
describe("npm run stack", { timeout: 240_000 }, () => {
  test("an unknown command prints the usage and exits non-zero", () => {
    const result = stack(["frobnicate"]);
    expect(result.code, result.why).toBe(2);
    expect(result.out).toContain("Unknown command: frobnicate");
    expect(result.out).toContain("Usage: npm run stack -- <command>");
    const bare = stack([]);
    expect(bare.code, bare.why).toBe(2);
  });

  test("start creates the cluster: base schema, migrations through the Supabase CLI, seed", async () => {
    const result = stack(["start"]);
    expect(result.out).toContain("Created and started");
    expect(result.code, result.why).toBe(0);
    const roles = await query<{ rolname: string }>(
      "select rolname from pg_roles where rolname in ('anon','authenticated','service_role','authenticator','supabase_admin','supabase_auth_admin','supabase_storage_admin') order by 1",
    );
    expect(roles.map((r) => r.rolname)).toEqual([
      "anon",
      "authenticated",
      "authenticator",
      "service_role",
      "supabase_admin",
      "supabase_auth_admin",
      "supabase_storage_admin",
    ]);
    const [{ wal_level }] = await query<{ wal_level: string }>("show wal_level");
    expect(wal_level).toBe("logical");
    const migrations = await query<{ name: string }>("select name from supabase_migrations.schema_migrations");
    expect(migrations.map((m) => m.name)).toContain("profiles");
    const seeded = await query<{ username: string }>("select username from public.profiles order by username");
    expect(seeded.map((p) => p.username)).toEqual(["ada", "grace"]);
  });

  test("start twice is fine, and status says what runs where", () => {
    const again = stack(["start"]);
    expect(again.code, again.why).toBe(0);
    expect(again.out).toContain("Already running");
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(0);
    expect(status.out).toMatch(/database\s+running\s+postgresql:\/\/postgres:postgres@127\.0\.0\.1:61322\/postgres/);
    expect(status.out).toMatch(/api\s+running\s+http:\/\/127\.0\.0\.1:61321/);
    expect(status.out).toMatch(/inbox\s+running\s+http:\/\/127\.0\.0\.1:61324/);
    expect(status.out).toMatch(/chain\s+running\s+http:\/\/127\.0\.0\.1:61545/);
  });

  test("env prints the app's variables in `supabase status -o env` form", () => {
    const result = stack(["env"]);
    expect(result.code, result.why).toBe(0);
    expect(result.out).toContain('API_URL="http://127.0.0.1:61321"');
    expect(result.out).toContain(`DB_URL="${dbUrl}"`);
    expect(result.out).toMatch(/^ANON_KEY="eyJ[\w-]+\.[\w-]+\.[\w-]+"$/m);
    expect(result.out).toContain('NEXT_PUBLIC_SUPABASE_URL="http://127.0.0.1:61321"');
  });

  test("a cluster killed with SIGKILL is recovered by the next start, data intact", async () => {
    await query("insert into auth.users (id, email) values ('77777777-7777-4777-8777-777777777777', 'crash@example.test')");
    process.kill(postmasterPid(), "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    const afterKill = stack(["status"]);
    expect(afterKill.out, afterKill.why).toMatch(/database\s+stopped/);
    const restarted = stack(["start"]);
    expect(restarted.code, restarted.why).toBe(0);
    const rows = await query<{ username: string }>(
      "select username from public.profiles where id = '77777777-7777-4777-8777-777777777777'",
    );
    expect(rows).toEqual([{ username: "crash" }]);
  });

  test("a `start` typed while the API's watchdog restarts a killed cluster: one start, no error, data intact", async () => {
    // an API whose watchdog restarts at once, so the two starts overlap
    expect(stack(["stop"]).code).toBe(0);
    const quick = stack(["start"], { STACK_DB_WATCHDOG_GRACE_MS: "1" });
    expect(quick.code, quick.why).toBe(0);
    const apiLogPath = path.join(stackDir, "logs", "api.log");
    const logBefore = readFileSync(apiLogPath, "utf8").length;
    const apiLog = () => readFileSync(apiLogPath, "utf8").slice(logBefore);
    process.kill(postmasterPid(), "SIGKILL");
    // the watchdog has noticed and is restarting the cluster: now type `start`
    await expect.poll(() => apiLog(), { timeout: 60_000, interval: 20 }).toContain("is not running: it crashed or was killed");
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    await expect.poll(() => apiLog(), { timeout: 60_000 }).toMatch(/\[db\] PostgreSQL (is back|is running again)/);
    expect(apiLog()).not.toContain("restarting PostgreSQL failed");
    const rows = await query<{ username: string }>(
      "select username from public.profiles where id = '77777777-7777-4777-8777-777777777777'",
    );
    expect(rows).toEqual([{ username: "crash" }]);
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(0);
  });

  test("a port already in use is named, with what holds it", async () => {
    const stopped = stack(["stop"]);
    expect(stopped.code, stopped.why).toBe(0);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(Number(ports.STACK_DB_PORT), "127.0.0.1", resolve));
    try {
      const result = stack(["start"]);
      expect(result.code, result.why).toBe(1);
      expect(result.out).toContain("Port 61322 (database) is already in use by");
      expect(result.out).toContain(`(pid ${process.pid})`);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  test("a broken migration shows the CLI's error with the file name and leaves the stack stopped", () => {
    const workDir = mkdtempSync(path.join(tmpdir(), "cuepoint-broken-"));
    try {
      cpSync(path.join(repoRoot, "supabase"), path.join(workDir, "supabase"), { recursive: true });
      writeFileSync(
        path.join(workDir, "supabase", "migrations", "29991231000000_broken.sql"),
        "create table public.oops (id int references public.nowhere (id));\n",
      );
      const result = stack(["start"], { STACK_WORKDIR: workDir });
      expect(result.code, result.why).toBe(1);
      expect(result.out).toContain("29991231000000_broken.sql");
      expect(result.out).toContain('relation "public.nowhere" does not exist');
      const status = stack(["status"]);
      expect(status.code, status.why).toBe(1);
      expect(status.out).toMatch(/database\s+stopped/);
      expect(status.out).toMatch(/api\s+stopped/);
      expect(status.out).toMatch(/chain\s+stopped/);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });

  test("reset recreates the database from scratch; stop stops everything", async () => {
    const started = stack(["start"]);
    expect(started.code, started.why).toBe(0);
    const reset = stack(["reset"]);
    expect(reset.code, reset.why).toBe(0);
    expect(await query("select 1 from auth.users where email = 'crash@example.test'")).toEqual([]);
    expect((await query("select username from public.profiles")).length).toBe(2);
    const stopped = stack(["stop"]);
    expect(stopped.out, stopped.why).toContain("database: stopped");
    expect(stopped.out).toContain("chain: stopped");
    const status = stack(["status"]);
    expect(status.code, status.why).toBe(1);
  });
});
