import { existsSync, readFileSync } from "node:fs";
import pg from "pg";
import type { StackConfig } from "./config.ts";
import { baseSchemaPath, seedPath, supabaseCli, workDir } from "./paths.ts";
import { dbUrl, execAsAdmin } from "./postgres.ts";
import { StackError, run } from "./run.ts";

/** Creates what Supabase provides before a project's migrations (roles, auth, storage, realtime…). */
export async function applyBaseSchema(config: StackConfig): Promise<void> {
  try {
    await execAsAdmin(config, readFileSync(baseSchemaPath, "utf8"));
  } catch (error) {
    throw new StackError(`The base schema (${baseSchemaPath}) failed: ${(error as Error).message}`);
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
