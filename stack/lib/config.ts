import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { configTomlPath } from "./paths.ts";

/** The parts of supabase/config.toml the stack honours. One source for the CLI and the stack. */
export interface StackConfig {
  projectId: string;
  apiPort: number;
  dbPort: number;
  inboxPort: number;
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

/**
 * Parses config.toml. STACK_API_PORT, STACK_DB_PORT and STACK_INBOX_PORT override its ports (and
 * STACK_CHAIN_PORT sets the chain's, which config.toml has no place for), so a
 * second stack (with its own STACK_DIR) can run beside the first, e.g. for parallel test runs.
 */
export function parseConfig(text: string): StackConfig {
  const raw = parse(text) as Table;
  return {
    projectId: typeof raw.project_id === "string" ? raw.project_id : "default",
    apiPort: portOverride("STACK_API_PORT") ?? integer(table(raw, "api").port, 54321),
    dbPort: portOverride("STACK_DB_PORT") ?? integer(table(raw, "db").port, 54322),
    inboxPort: portOverride("STACK_INBOX_PORT") ?? integer(table(raw, "local_smtp").port ?? table(raw, "inbucket").port, 54324),
    chainPort: portOverride("STACK_CHAIN_PORT") ?? 8545,
    dbMajorVersion: integer(table(raw, "db").major_version, 15),
    raw,
  };
}

export function loadConfig(): StackConfig {
  return parseConfig(readFileSync(configTomlPath, "utf8"));
}
