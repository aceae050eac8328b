import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { configTomlPath } from "./paths.ts";

/** The parts of supabase/config.toml the stack honours. One source for the CLI and the stack. */
export interface StackConfig {
  projectId: string;
  apiPort: number;
  dbPort: number;
  inboxPort: number;
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

export function parseConfig(text: string): StackConfig {
  const raw = parse(text) as Table;
  return {
    projectId: typeof raw.project_id === "string" ? raw.project_id : "default",
    apiPort: integer(table(raw, "api").port, 54321),
    dbPort: integer(table(raw, "db").port, 54322),
    inboxPort: integer(table(raw, "local_smtp").port ?? table(raw, "inbucket").port, 54324),
    dbMajorVersion: integer(table(raw, "db").major_version, 15),
    raw,
  };
}

export function loadConfig(): StackConfig {
  return parseConfig(readFileSync(configTomlPath, "utf8"));
}
