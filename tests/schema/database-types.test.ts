import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { loadConfig } from "@cuepoint/stack";
import { databaseTypesPath, generateDatabaseTypes } from "@cuepoint/stack/db-types";

test("types/database.ts matches a fresh `supabase gen types` of the migrated database (run `npm run db:types` if not)", async () => {
  const fresh = await generateDatabaseTypes(loadConfig());
  const checkedIn = readFileSync(databaseTypesPath, "utf8");
  expect(fresh).toContain("profiles: {");
  expect(checkedIn).toBe(fresh);
}, 60_000);
