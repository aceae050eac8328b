import type { ServerContext } from "../context.ts";
import type { ServiceRoute } from "../gateway.ts";
import { globalFileSizeLimit, syncConfiguredBuckets } from "./bucket-store.ts";
import { sweepOrphans } from "./disk.ts";
import { errors, StorageError, sendStorageError } from "./errors.ts";
import { drain } from "./http.ts";
import { hasDotSegment, route } from "./routes.ts";

const prefix = "/storage/v1";

function imageTransformationEnabled(raw: Record<string, unknown>): boolean {
  const storage = raw.storage as { image_transformation?: { enabled?: unknown } } | undefined;
  return storage?.image_transformation?.enabled === true;
}

/**
 * The Storage service at /storage/v1, compatible with Supabase Storage's HTTP API as storage-js
 * uses it. Buckets declared in config.toml are created or updated at start; objects' rows live in
 * storage.objects (read and written as the caller, so RLS decides) and their bytes under .stack/.
 */
export async function createStorageRoute(ctx: ServerContext): Promise<ServiceRoute> {
  const synced = await syncConfiguredBuckets(ctx.adminPool, ctx.config.raw);
  if (synced.length) console.log(`[storage] buckets from config.toml: ${synced.map((bucket) => bucket.id).join(", ")}`);
  const globalLimit = globalFileSizeLimit(ctx.config.raw);
  const imageTransformation = imageTransformationEnabled(ctx.config.raw);
  const { rows } = await ctx.adminPool.query<{ key: string }>(
    "select bucket_id || '/' || name || '#' || version as key from storage.objects where version is not null",
  );
  const known = new Set(rows.map((row) => row.key));
  const swept = await sweepOrphans((bucket, name, version) => known.has(`${bucket}/${name}#${version}`));
  if (swept) console.log(`[storage] removed ${swept} file(s) left by interrupted uploads`);

  return {
    prefix,
    // Like Kong's storage route in `supabase start`: no key check at the gateway; Storage reads the JWT itself.
    open: () => true,
    handler: async (req, res, gateway) => {
      const method = req.method ?? "GET";
      const pathname = gateway.url.pathname.slice(prefix.length) || "/";
      if (method === "OPTIONS") {
        res.writeHead(200, { "Content-Length": 0 });
        res.end();
        return;
      }
      try {
        if (hasDotSegment(req.url ?? "")) throw errors.invalidKey((req.url ?? "").split("?")[0].slice(prefix.length + 1));
        // Without [storage.image_transformation] enabled, storage-api registers no /render routes.
        if (!imageTransformation && /^\/render(\/|$)/.test(pathname))
          throw errors.routeNotFound(method, (req.url ?? "").slice(prefix.length));
        const handler = route(method, pathname);
        if (!handler) throw errors.notFoundRoute(method, `${prefix}${pathname}`);
        await handler({ req, res, server: ctx, bearer: gateway.bearer, url: gateway.url, globalLimit, imageTransformation });
      } catch (error) {
        // A client that went away (an abandoned upload) gets no answer; its temporary file is already gone.
        if (res.destroyed || res.writableEnded) return;
        const storageError = error instanceof StorageError ? error : errors.internal();
        if (!(error instanceof StorageError)) console.error(`[storage] ${method} ${pathname}:`, error);
        // A refused upload's remaining bytes are read and dropped, so the client gets this answer.
        drain(req);
        sendStorageError(res, storageError);
      }
    },
  };
}
