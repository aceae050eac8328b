import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { StackConfig } from "../../lib/config.ts";
import { anonKey, publishableKey, secretKey, serviceRoleKey } from "../../lib/keys.ts";
import { repoRoot, stateDir, supabaseDir } from "../../lib/paths.ts";
import { dbUrl } from "../../lib/postgres.ts";
import { parseDotenv } from "./dotenv.ts";

/** What `[functions.<name>]` in config.toml says about one function. */
export interface FunctionSettings {
  enabled: boolean;
  verifyJwt: boolean;
  /** Absolute path of the module to serve (default `<functionsDir>/<name>/index.ts`). */
  entrypoint: string;
  importMap?: string;
}

/** Everything the Functions service needs; the stack builds it from config.toml, tests build their own. */
export interface FunctionsOptions {
  functionsDir: string;
  settings: (name: string) => FunctionSettings;
  /** Variables every function sees, before supabase/functions/.env (read at each worker start). */
  baseEnv: () => Record<string, string>;
  denoBinary: string;
  denoDir: string;
  /** A request still unanswered after this long terminates its worker (Supabase's wall-clock limit). */
  wallClockMs: number;
  bootTimeoutMs: number;
  /** Workers with no request for this long are stopped (they restart on the next request). */
  idleMs: number;
  /** `[edge_runtime] policy`: `per_worker` keeps a worker across requests, `oneshot` starts one per request. */
  policy: "per_worker" | "oneshot";
  /** `[edge_runtime] enabled = false`: no functions route at all, as when `supabase start` skips the runtime. */
  enabled: boolean;
  watch: boolean;
  log: (line: string) => void;
}

type Table = Record<string, unknown>;

function table(parent: unknown, key: string): Table {
  const value = parent && typeof parent === "object" ? (parent as Table)[key] : undefined;
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};
}

/** `env(NAME)` in config.toml reads the environment, as the CLI does. */
function configString(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const ref = /^env\((\w+)\)$/.exec(value);
  return ref ? process.env[ref[1]] : value;
}

export function functionSettings(raw: Table, functionsDir: string, name: string): FunctionSettings {
  const section = table(table(raw, "functions"), name);
  const entry = configString(section.entrypoint);
  const importMap = configString(section.import_map);
  return {
    enabled: section.enabled !== false,
    verifyJwt: section.verify_jwt !== false,
    // config.toml paths are relative to the supabase/ directory
    entrypoint: entry ? path.resolve(path.dirname(functionsDir), entry) : path.join(functionsDir, name, "index.ts"),
    importMap: importMap ? path.resolve(path.dirname(functionsDir), importMap) : undefined,
  };
}

/**
 * The variables Supabase gives every function, plus `[edge_runtime.secrets]`, after `chain`: the
 * local chain's variables the project's deploy script names (lib/chain.ts, functionsChainEnv).
 */
export function supabaseFunctionEnv(config: StackConfig, chain: Record<string, string> = {}): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(table(table(config.raw, "edge_runtime"), "secrets"))) {
    const resolved = configString(value);
    if (resolved !== undefined) secrets[key] = resolved;
  }
  return {
    ...chain,
    ...secrets,
    SUPABASE_URL: `http://127.0.0.1:${config.apiPort}`,
    SUPABASE_ANON_KEY: anonKey,
    SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
    SUPABASE_DB_URL: dbUrl(config),
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: secretKey }),
  };
}

/**
 * supabase/functions/.env, without names starting with SUPABASE_ (the CLI refuses to let a
 * project override its own variables).
 */
export function readFunctionsDotenv(functionsDir: string, log: (line: string) => void): Record<string, string> {
  const file = path.join(functionsDir, ".env");
  if (!existsSync(file)) return {};
  const values = parseDotenv(readFileSync(file, "utf8"));
  for (const name of Object.keys(values)) {
    if (name.startsWith("SUPABASE_")) {
      log(`[functions] ignoring ${name} from ${file}: names starting with SUPABASE_ are reserved`);
      delete values[name];
    }
  }
  return values;
}

const seconds = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value * 1000 : fallback;
};

export const denoBinary = path.join(repoRoot, "node_modules", "deno", "deno");
export const defaultDenoDir = path.join(stateDir, "deno");

/** `chain`: the local chain's variables for functions (lib/chain.ts, functionsChainEnv). */
export function stackFunctionsOptions(config: StackConfig, chain: Record<string, string> = {}): FunctionsOptions {
  const functionsDir = path.join(supabaseDir, "functions");
  const runtime = table(config.raw, "edge_runtime");
  return {
    functionsDir,
    settings: (name) => functionSettings(config.raw, functionsDir, name),
    baseEnv: () => supabaseFunctionEnv(config, chain),
    denoBinary,
    denoDir: process.env.DENO_DIR ?? defaultDenoDir,
    // Supabase's request idle timeout is 150 s; STACK_FUNCTIONS_WALL_CLOCK_SECONDS shortens it.
    wallClockMs: seconds("STACK_FUNCTIONS_WALL_CLOCK_SECONDS", 150_000),
    bootTimeoutMs: seconds("STACK_FUNCTIONS_BOOT_TIMEOUT_SECONDS", 120_000),
    idleMs: seconds("STACK_FUNCTIONS_IDLE_SECONDS", 600_000),
    policy: runtime.policy === "oneshot" ? "oneshot" : "per_worker",
    enabled: runtime.enabled !== false,
    watch: true,
    log: (line) => console.log(line),
  };
}
