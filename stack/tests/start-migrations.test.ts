// `start` skips the Supabase CLI when the database already has exactly the project's migrations,
// and leaves every other case to the CLI (which applies or explains it).
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { migrationsUpToDate } from "../lib/migrate.ts";
import { migrationsDir } from "../lib/paths.ts";
import { config } from "./helpers/stack.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "cuepoint-migrations-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function copyOfMigrations(name: string): string {
  const dir = path.join(scratch, name);
  cpSync(migrationsDir, dir, { recursive: true });
  return dir;
}

describe("migrationsUpToDate", () => {
  test("is true for the running stack's database and the project's migrations", async () => {
    expect(await migrationsUpToDate(config)).toBe(true);
  });

  test("is false when a migration file is new, so the CLI applies it", async () => {
    const dir = copyOfMigrations("new");
    writeFileSync(path.join(dir, "29991231000000_later.sql"), "select 1;\n");
    expect(await migrationsUpToDate(config, dir)).toBe(false);
  });

  test("is false when the database knows a version the folder lacks, so the CLI explains it", async () => {
    const dir = copyOfMigrations("missing");
    const [first] = readdirSync(dir)
      .filter((file) => file.endsWith(".sql"))
      .sort();
    rmSync(path.join(dir, first));
    expect(await migrationsUpToDate(config, dir)).toBe(false);
  });

  test("ignores files the CLI ignores (not <version>_<name>.sql)", async () => {
    const dir = copyOfMigrations("notes");
    writeFileSync(path.join(dir, "README.md"), "notes\n");
    writeFileSync(path.join(dir, "draft.sql"), "select 1;\n");
    expect(await migrationsUpToDate(config, dir)).toBe(true);
  });

  test("is false when the database cannot be reached", async () => {
    expect(await migrationsUpToDate({ ...config, dbPort: 1 })).toBe(false);
  });
});
