import { existsSync, readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { configTomlPath, localDevelopmentEnvPath } from "./paths.ts";

/** The parts of supabase/config.toml the stack honours. One source for the CLI and the stack. */
export interface StackConfig {
  projectId: string;
  apiPort: number;
  dbPort: number;
  inboxPort: number;
  /** The inbox's SMTP listener: [local_smtp] smtp_port (or [inbucket] smtp_port), else 54325. */
  smtpPort: number;
  /** The local chain (Anvil). Not a Supabase setting: STACK_CHAIN_PORT, else 8545. */
  chainPort: number;
  dbMajorVersion: number;
  raw: Record<string, unknown>;
}

type Table = Record<string, unknown>;

function table(parent: Table, key: string): Table {
  const value = parent[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};
}

function integer(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) ? value : fallback;
}

function portOverride(name: string): number | undefined {
  const value = process.env[name];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

type Env = Record<string, string | undefined>;

/** Go's strconv.ParseBool, which the CLI uses for a boolean read from the environment. */
function parseBool(text: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  return undefined;
}

function overrideValue(current: unknown, text: string, name: string, key: string): unknown {
  if (typeof current === "number") {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value)) throw new Error(`${name}=${text} is not a number (${key} in config.toml)`);
    return value;
  }
  if (typeof current === "boolean") {
    const value = parseBool(text);
    if (value === undefined) throw new Error(`${name}=${text} is not true or false (${key} in config.toml)`);
    return value;
  }
  return text;
}

/**
 * The Supabase CLI reads any setting from the environment as well as from the file: the variable
 * SUPABASE_ + its key path in capitals with dots as underscores (SUPABASE_AUTH_EMAIL_MAX_FREQUENCY for
 * auth.email.max_frequency), numbers and booleans included, where `env()` in the file works only for
 * strings. The stack does the same for the settings the file names; an empty variable is unset.
 */
function applyEnvOverrides(raw: Table, env: Env, path: string[] = []): Table {
  const result: Table = {};
  for (const [key, value] of Object.entries(raw)) {
    const keyPath = [...path, key];
    if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)) {
      result[key] = applyEnvOverrides(value as Table, env, keyPath);
      continue;
    }
    const name = `SUPABASE_${keyPath.join("_").toUpperCase()}`;
    const text = env[name];
    result[key] = text ? overrideValue(value, text, name, keyPath.join(".")) : value;
  }
  return result;
}

/** KEY=VALUE lines (optionally quoted), # comments and blank lines: the subset of dotenv the project's files use. */
export function parseEnvFile(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    const [, name, value] = match;
    vars[name] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value.replace(/\s+#.*$/, "");
  }
  return vars;
}

/**
 * Parses config.toml. STACK_API_PORT, STACK_DB_PORT, STACK_INBOX_PORT and STACK_SMTP_PORT override its ports (and
 * STACK_CHAIN_PORT sets the chain's, which config.toml has no place for), so a
 * second stack (with its own STACK_DIR) can run beside the first, e.g. for parallel test runs.
 */
export function parseConfig(text: string, env: Env = {}): StackConfig {
  const raw = applyEnvOverrides(parse(text) as Table, env);
  const inboxOverride = portOverride("STACK_INBOX_PORT");
  return {
    projectId: typeof raw.project_id === "string" ? raw.project_id : "default",
    apiPort: portOverride("STACK_API_PORT") ?? integer(table(raw, "api").port, 54321),
    dbPort: portOverride("STACK_DB_PORT") ?? integer(table(raw, "db").port, 54322),
    inboxPort: inboxOverride ?? integer(table(raw, "local_smtp").port ?? table(raw, "inbucket").port, 54324),
    // A stack whose inbox STACK_INBOX_PORT moves takes SMTP one port above it (as 54324/54325),
    // so a private stack never collides with the project's on the SMTP port.
    smtpPort:
      portOverride("STACK_SMTP_PORT") ??
      (inboxOverride === undefined ? undefined : inboxOverride + 1) ??
      integer(table(raw, "local_smtp").smtp_port ?? table(raw, "inbucket").smtp_port, 54325),
    chainPort: portOverride("STACK_CHAIN_PORT") ?? 8545,
    dbMajorVersion: integer(table(raw, "db").major_version, 15),
    raw,
  };
}

/**
 * The project as it runs locally: config.toml (what `supabase config push` sends, so production's
 * values), under supabase/local-development.env's overrides (what development and tests relax), under
 * the shell's own SUPABASE_* variables.
 */
export function loadConfig(): StackConfig {
  const local = existsSync(localDevelopmentEnvPath) ? parseEnvFile(readFileSync(localDevelopmentEnvPath, "utf8")) : {};
  return parseConfig(readFileSync(configTomlPath, "utf8"), { ...local, ...process.env });
}
