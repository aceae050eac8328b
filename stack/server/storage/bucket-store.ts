import type pg from "pg";
import { errors } from "./errors.ts";
import { parseSize } from "./names.ts";

export interface Bucket {
  id: string;
  name: string;
  owner: string | null;
  owner_id?: string | null;
  public: boolean;
  type: string;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export const bucketColumns = "id, name, owner, public, type, file_size_limit, allowed_mime_types, created_at, updated_at";

/** bigint comes back from pg as a string; the API shows a number. */
export function shapeBucket(row: Record<string, unknown>): Bucket {
  return {
    ...(row as unknown as Bucket),
    file_size_limit: row.file_size_limit === null || row.file_size_limit === undefined ? null : Number(row.file_size_limit),
  };
}

/** Looks a bucket up as Storage does for itself (superuser), whatever the caller may see. */
async function findBucket(adminPool: pg.Pool, id: string): Promise<Bucket | undefined> {
  const { rows } = await adminPool.query(`select ${bucketColumns} from storage.buckets where id = $1`, [id]);
  return rows[0] ? shapeBucket(rows[0]) : undefined;
}

export async function mustFindBucket(adminPool: pg.Pool, id: string): Promise<Bucket> {
  const bucket = await findBucket(adminPool, id);
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};
}

/** `[storage] file_size_limit`: the ceiling for every upload, whatever a bucket allows. */
export function globalFileSizeLimit(raw: Table): number {
  return parseSize(table(raw.storage).file_size_limit) ?? 50 * 1024 * 1024;
}

export interface ConfiguredBucket {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

function configuredBuckets(raw: Table): ConfiguredBucket[] {
  return Object.entries(table(table(raw.storage).buckets)).map(([id, value]) => {
    const spec = table(value);
    const limit = parseSize(spec.file_size_limit);
    const types = Array.isArray(spec.allowed_mime_types)
      ? spec.allowed_mime_types.filter((type): type is string => typeof type === "string" && type.length > 0)
      : [];
    return {
      id,
      public: spec.public === true,
      fileSizeLimit: limit && limit > 0 ? limit : null,
      allowedMimeTypes: types.length ? types : null,
    };
  });
}

/** Creates or updates the buckets config.toml declares, as `supabase start` seeds them. */
export async function syncConfiguredBuckets(adminPool: pg.Pool, raw: Table): Promise<ConfiguredBucket[]> {
  const buckets = configuredBuckets(raw);
  for (const bucket of buckets) {
    await adminPool.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
       values ($1, $1, $2, $3, $4)
       on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
         allowed_mime_types = excluded.allowed_mime_types, updated_at = now()
       where (storage.buckets.public, storage.buckets.file_size_limit, storage.buckets.allowed_mime_types)
         is distinct from (excluded.public, excluded.file_size_limit, excluded.allowed_mime_types)`,
      [bucket.id, bucket.public, bucket.fileSizeLimit, bucket.allowedMimeTypes],
    );
  }
  return buckets;
}
