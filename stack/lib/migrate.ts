import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { StackConfig } from "./config.ts";
import { baseSchemaPath, migrationsDir, packageDir, seedPath, supabaseCli, workDir } from "./paths.ts";
import { dbUrl, execAsAdmin } from "./postgres.ts";
import { applyRealtimeSchema, createMessagePartitions } from "./realtime-messages.ts";
import { StackError, run } from "./run.ts";

/** Creates what Supabase provides before a project's migrations (roles, auth, storage, realtime…). */
export async function applyBaseSchema(config: StackConfig): Promise<void> {
  try {
    await execAsAdmin(config, readFileSync(baseSchemaPath, "utf8"));
  } catch (error) {
    throw new StackError(`The base schema (${baseSchemaPath}) failed: ${(error as Error).message}`);
  }
}

const authSchemaPath = path.join(packageDir, "db", "auth-schema.sql");
/** The newest GoTrue migration db/auth-schema.sql records; bump it when the file gains one. */
const authSchemaVersion = "20260302000000";

/**
 * Auth's tables newer than the base schema (db/auth-schema.sql: passkeys, WebAuthn challenges,
 * OAuth clients), on a new cluster and once on a cluster an older stack created. True when applied.
 */
export async function applyAuthSchema(config: StackConfig): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl(config) });
  await client.connect();
  try {
    const { rows } = await client.query("select 1 from auth.schema_migrations where version = $1", [authSchemaVersion]);
    if (rows.length > 0) return false;
    await client.query(readFileSync(authSchemaPath, "utf8"));
    return true;
  } catch (error) {
    throw new StackError(`Auth's schema (stack/db/auth-schema.sql) failed: ${(error as Error).message}`);
  } finally {
    await client.end();
  }
}

/**
 * Realtime's own tables and functions (db/realtime-schema.sql), as the Realtime service migrates a
 * project's database: on a new cluster, and once on a cluster an older stack created. Then the
 * coming days' realtime.messages partitions. Runs before the project's migrations, which may
 * call realtime.send or put policies on realtime.messages.
 */
export async function applyRealtimeMigrations(config: StackConfig): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl(config) });
  await client.connect();
  try {
    const applied = await applyRealtimeSchema(client);
    await createMessagePartitions(client);
    return applied;
  } catch (error) {
    throw new StackError(`Realtime's schema (stack/db/realtime-schema.sql) failed: ${(error as Error).message}`);
  } finally {
    await client.end();
  }
}

/** Applies pending supabase/migrations with the real Supabase CLI, as `supabase migration up` does. */
export async function applyMigrations(config: StackConfig): Promise<string> {
  const result = await run(supabaseCli, ["migration", "up", `--remote=${dbUrl(config)}`, "--yes", "--workdir", workDir], {
    cwd: workDir,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1", PGSSLMODE: "disable" },
  });
  const output = `${result.stdout}${result.stderr}`.trim();
  if (result.code !== 0) throw new StackError(`A migration failed (supabase migration up):\n${output}`);
  return output;
}

/**
 * True when the database has recorded exactly the migrations in supabase/migrations (by version),
 * so `supabase migration up` would have nothing to do and `start` can skip it (the CLI takes a
 * second or two; this query milliseconds). Any difference (a new file, a version only the database
 * knows, no history table yet) is left to the CLI, which applies it or explains it.
 */
export async function migrationsUpToDate(config: StackConfig, dir = migrationsDir): Promise<boolean> {
  // the CLI's own file pattern: <version>_<name>.sql
  const local = existsSync(dir) ? readdirSync(dir).flatMap((file) => /^(\d+)_.*\.sql$/.exec(file)?.[1] ?? []) : [];
  const client = new pg.Client({ connectionString: dbUrl(config) });
  try {
    await client.connect();
    const { rows } = await client.query<{ version: string }>("select version from supabase_migrations.schema_migrations");
    const applied = rows.map((row) => row.version);
    return applied.length === local.length && [...applied].sort().join() === [...local].sort().join();
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Loads supabase/seed.sql as `postgres`, the way `supabase db reset` seeds a local database. */
export async function applySeed(config: StackConfig): Promise<boolean> {
  if (!existsSync(seedPath)) return false;
  const sql = readFileSync(seedPath, "utf8");
  if (!sql.trim()) return false;
  const client = new pg.Client({ connectionString: dbUrl(config) });
  await client.connect();
  try {
    await client.query(sql);
  } catch (error) {
    throw new StackError(`supabase/seed.sql failed: ${(error as Error).message}`);
  } finally {
    await client.end();
  }
  return true;
}
