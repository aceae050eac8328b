// Fixtures for the Storage conformance suites: two signed-in users (auth.users rows and JWTs
// minted with the project secret), a private and a public bucket, and storage.objects policies
// of the suites' own (fx_st_…), all removed afterwards. Each suite passes its own tag, so suites
// running in parallel never share a bucket or a policy.
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { signHs256 } from "../lib/keys.ts";
import { stateDir } from "../lib/paths.ts";
import { anonKey, apiUrl, databaseUrl, serviceClient } from "./helpers/stack.ts";

export interface TestUser {
  id: string;
  email: string;
  jwt: string;
  client: SupabaseClient;
}

export function userJwt(id: string, email: string, extra: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({
    sub: id,
    role: "authenticated",
    aud: "authenticated",
    email,
    iat: now,
    exp: now + 3600,
    session_id: randomUUID(),
    ...extra,
  });
}

export function clientWithJwt(jwt: string): SupabaseClient {
  return createClient(apiUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${jwt}` } },
  });
}

export async function adminQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Every file under a bucket's folder (relative paths), to check what is on disk. */
export function filesOf(bucket: string): string[] {
  const root = path.join(stateDir, "storage", bucket);
  try {
    return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

export function pendingUploads(): string[] {
  try {
    return readdirSync(path.join(stateDir, "storage-uploads"));
  } catch {
    return [];
  }
}

export interface StorageFixture {
  privateBucket: string;
  publicBucket: string;
  alice: TestUser;
  bob: TestUser;
  service: SupabaseClient;
  teardown: () => Promise<void>;
}

/**
 * Private bucket: a user reads, writes and deletes only inside the folder named by their id.
 * Public bucket: anyone reads; a user writes only inside their own folder.
 */
export async function setupStorageFixture(
  tag: string,
  options: { fileSizeLimit?: number; allowedMimeTypes?: string[] } = {},
): Promise<StorageFixture> {
  const privateBucket = `fx-st-${tag}-private`;
  const publicBucket = `fx-st-${tag}-public`;
  const policy = `fx_st_${tag.replaceAll("-", "_")}`;
  const users = [0, 1].map((index) => {
    const id = randomUUID();
    const email = `fx-st-${tag}-${index}-${id.slice(0, 8)}@example.test`;
    const jwt = userJwt(id, email);
    return { id, email, jwt, client: clientWithJwt(jwt) };
  });
  await adminQuery(
    `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     select '00000000-0000-0000-0000-000000000000', id, 'authenticated', 'authenticated', email, '{"provider":"email"}', '{}', now(), now()
     from unnest($1::uuid[], $2::text[]) as u(id, email)`,
    [users.map((user) => user.id), users.map((user) => user.email)],
  );
  await adminQuery(
    `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
       ($1, $1, false, $3, $4), ($2, $2, true, $3, $4)`,
    [privateBucket, publicBucket, options.fileSizeLimit ?? null, options.allowedMimeTypes ?? null],
  );
  const ownFolder = "(storage.foldername(name))[1] = (select auth.uid())::text";
  await adminQuery(`
    create policy ${policy}_private_select on storage.objects for select to authenticated using (bucket_id = '${privateBucket}' and ${ownFolder});
    create policy ${policy}_private_insert on storage.objects for insert to authenticated with check (bucket_id = '${privateBucket}' and ${ownFolder});
    create policy ${policy}_private_update on storage.objects for update to authenticated using (bucket_id = '${privateBucket}' and ${ownFolder}) with check (bucket_id = '${privateBucket}' and ${ownFolder});
    create policy ${policy}_private_delete on storage.objects for delete to authenticated using (bucket_id = '${privateBucket}' and ${ownFolder});
    create policy ${policy}_public_select on storage.objects for select to anon, authenticated using (bucket_id = '${publicBucket}');
    create policy ${policy}_public_insert on storage.objects for insert to authenticated with check (bucket_id = '${publicBucket}' and ${ownFolder});
    create policy ${policy}_public_update on storage.objects for update to authenticated using (bucket_id = '${publicBucket}' and ${ownFolder}) with check (bucket_id = '${publicBucket}' and ${ownFolder});
    create policy ${policy}_public_delete on storage.objects for delete to authenticated using (bucket_id = '${publicBucket}' and ${ownFolder});
  `);
  const service = serviceClient();
  return {
    privateBucket,
    publicBucket,
    alice: users[0],
    bob: users[1],
    service,
    teardown: async () => {
      for (const bucket of [privateBucket, publicBucket]) {
        await service.storage.emptyBucket(bucket);
        await service.storage.deleteBucket(bucket);
      }
      const policies = await adminQuery<{ policyname: string }>(
        "select policyname from pg_policies where schemaname = 'storage' and tablename = 'objects' and policyname like $1",
        [`${policy}%`],
      );
      for (const { policyname } of policies) await adminQuery(`drop policy ${policyname} on storage.objects`);
      await adminQuery("delete from storage.objects where bucket_id = any($1)", [[privateBucket, publicBucket]]);
      await adminQuery("delete from storage.buckets where id = any($1)", [[privateBucket, publicBucket]]);
      await adminQuery("delete from auth.users where id = any($1::uuid[])", [users.map((user) => user.id)]);
    },
  };
}
