import { describe, expect, test } from "vitest";
import { isProjectEntry, namesAddedByMigrations, stableDump } from "../../scripts/schema-dump.ts";

const added = namesAddedByMigrations([
  `create policy "Avatars are readable by everyone" on storage.objects for select using (true);
   create trigger on_auth_user_created after insert on auth.users for each row execute function private.f();
   CREATE POLICY "It's ""quoted""" on realtime.messages for select using (true);`,
]);

describe("namesAddedByMigrations", () => {
  test("collects quoted and bare names of created policies and triggers", () => {
    expect([...added].sort()).toEqual(["Avatars are readable by everyone", 'It\'s "quoted"', "on_auth_user_created"]);
  });
});

describe("isProjectEntry", () => {
  const keeps = (entry: string) => isProjectEntry(`4242; 1259 16789 ${entry}`, added);

  test("keeps the project's schemas' objects and their grants", () => {
    expect(keeps("TABLE public moments postgres")).toBe(true);
    expect(keeps("FK CONSTRAINT public moments moments_post_id_fkey postgres")).toBe(true);
    expect(keeps("FUNCTION private room_role(target_room uuid) postgres")).toBe(true);
    expect(keeps("ACL private FUNCTION room_role(target_room uuid) postgres")).toBe(true);
    expect(keeps("SCHEMA - private postgres")).toBe(true);
    expect(keeps("ACL - SCHEMA private postgres")).toBe(true);
  });

  test("keeps only the policies and triggers a migration adds to Supabase's schemas", () => {
    expect(keeps("POLICY storage objects Avatars are readable by everyone supabase_storage_admin")).toBe(true);
    expect(keeps("TRIGGER auth users on_auth_user_created supabase_auth_admin")).toBe(true);
    expect(keeps("POLICY realtime messages fx_rt_read supabase_realtime_admin")).toBe(false);
  });

  test("leaves out the platform's own objects and default privileges", () => {
    expect(keeps("TABLE storage objects supabase_storage_admin")).toBe(false);
    expect(keeps("FUNCTION auth uid() supabase_auth_admin")).toBe(false);
    expect(keeps("ACL - SCHEMA public postgres")).toBe(false);
    expect(keeps("DEFAULT ACL public DEFAULT PRIVILEGES FOR TABLES postgres")).toBe(false);
    expect(isProjectEntry(";\n; Archive created at 2026-11-26", added)).toBe(false);
  });
});

describe("stableDump", () => {
  test("drops the tools' versions and psql's per-run restrict key", () => {
    const dump = stableDump(
      "-- Dumped from database version 15.14\n-- Dumped by pg_dump version 15.14\n\\restrict abc123\nCREATE TABLE public.t ();\n\n\n\n\\unrestrict abc123\n",
    );
    expect(dump).toContain("CREATE TABLE public.t ();");
    expect(dump).not.toMatch(/Dumped|restrict abc123|\n\n\n/);
  });
});
