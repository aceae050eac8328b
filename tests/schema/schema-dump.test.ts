import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { loadConfig } from "@cuepoint/stack";
import { dumpSchema, schemaDumpPath } from "../../scripts/schema-dump.ts";

test("supabase/schema.sql matches a fresh dump of the migrated database (run `npm run db:schema` if not)", async () => {
  const fresh = await dumpSchema(loadConfig());
  expect(fresh).toContain("CREATE TABLE public.moments (");
  expect(fresh).toContain('CREATE POLICY "Avatars are readable by everyone" ON storage.objects');
  expect(readFileSync(schemaDumpPath, "utf8")).toBe(fresh);
}, 60_000);
