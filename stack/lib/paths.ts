import path from "node:path";
import { fileURLToPath } from "node:url";
import { clusterDir } from "./cluster-dir.ts";

/** Absolute paths the stack reads and writes. Everything it creates lives under `.stack/` (the cluster too, unless postgres cannot reach it there: see dbDir). */
/** The package's own directory: its server, CLI and base schema. */
export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/**
 * The project the stack serves: the directory holding the package as a workspace (`<project>/stack`)
 * or as a dependency (`<project>/node_modules/@cuepoint/stack`). Its node_modules/.bin has the CLIs.
 */
export const repoRoot = packageDir.includes(`${path.sep}node_modules${path.sep}`)
  ? packageDir.slice(0, packageDir.indexOf(`${path.sep}node_modules${path.sep}`))
  : path.dirname(packageDir);
/** The directory holding `supabase/` (config, migrations, seed, tests); STACK_WORKDIR overrides it. */
export const workDir = process.env.STACK_WORKDIR ? path.resolve(process.env.STACK_WORKDIR) : repoRoot;
export const supabaseDir = path.join(workDir, "supabase");
export const configTomlPath = path.join(supabaseDir, "config.toml");
/** SUPABASE_* settings for local development and tests only (the CLI never reads this file by itself). */
export const localDevelopmentEnvPath = path.join(supabaseDir, "local-development.env");
export const migrationsDir = path.join(supabaseDir, "migrations");
export const seedPath = path.join(supabaseDir, "seed.sql");
export const dbTestsDir = path.join(supabaseDir, "tests");

export const stateDir = process.env.STACK_DIR ? path.resolve(process.env.STACK_DIR) : path.join(repoRoot, ".stack");
/** The cluster's directory: `<stateDir>/db`, or outside the clone when postgres cannot enter it (see clusterDir). */
export const dbDir = clusterDir(stateDir);
export const pgDataDir = path.join(dbDir, "data");
export const pgSocketDir = path.join(dbDir, "run");
export const pgLogPath = path.join(dbDir, "postgres.log");
export const logsDir = path.join(stateDir, "logs");
export const runDir = path.join(stateDir, "run");

export const baseSchemaPath = path.join(packageDir, "db", "base-schema.sql");
export const binDir = path.join(repoRoot, "node_modules", ".bin");
export const supabaseCli = path.join(binDir, "supabase");
/** The app's settings file, next to supabase/ (the project directory Next.js runs in). */
export const envLocalPath = path.join(workDir, ".env.local");
