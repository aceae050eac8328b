import type pg from "pg";
import type { ServerContext } from "../context.ts";
import type { ServiceRoute } from "../gateway.ts";
import { dbPassword } from "../../lib/postgres.ts";
import { Executor } from "./execute.ts";
import { handleRest, type RestState } from "./handler.ts";
import type { RestOptions } from "./request.ts";
import { loadSchemaCache } from "./schema-cache.ts";

/**
 * The Rest service at /rest/v1: PostgREST-compatible, as supabase-js uses it. A request goes forward
 * through PostgREST's pipeline (handler.ts drives it), each step visited once:
 *
 *   1 request.ts (grammar.ts)   parse the request: path, profile, Prefer, select/filter/order, Range, body
 *   2 plan.ts                   resolve it against the schema cache: relation or function (rpc.ts),
 *     (read-plan.ts,            the read tree with its embeds (relationships.ts: PGRST200/201),
 *      relationships.ts)        media type, body rows — every error that needs no database
 *   3 statement.ts              build ONE statement (read.ts, write.ts, conditions.ts); every value a $n
 *   4 execute.ts                run it as the caller's role with request.jwt.claims etc. set
 *   5 respond.ts                shape the response: status, Content-Range, Preference-Applied, errors
 *
 * schema-cache.ts reads tables, views, columns, keys (also through views), functions and role
 * settings from pg_catalog at start and on NOTIFY pgrst.
 *
 * Requests of the same shape (path, query, role, Accept, Prefer) reuse their SQL and run as
 * prepared statements with generic plans.
 */
export async function createRestRoute(ctx: ServerContext): Promise<ServiceRoute> {
  const options = restOptions(ctx.config.raw);
  // Repeated request shapes run as prepared statements; a generic plan avoids re-planning each one
  // (with `auto`, RLS-filtered limit queries keep getting custom plans: 3x the database CPU).
  const executor = new Executor({
    host: "127.0.0.1",
    port: ctx.config.dbPort,
    database: "postgres",
    user: "authenticator",
    password: dbPassword,
    max: 12,
    options: "-c plan_cache_mode=force_generic_plan",
  });
  // Until the schema cache has loaded, requests get PostgREST's 503 PGRST002 (see handler.ts).
  const state: RestState = { cache: undefined, executor, options, plans: new Map() };
  // Reloads run one after another, so a slow earlier load never replaces a newer cache. A reload
  // asked for while one is already waiting to start joins that one: it will read the catalog after
  // every DDL notified so far. (Each DDL statement notifies; without this, a burst of fixture DDL
  // queued one full reload per statement and the cache lagged seconds behind on a busy machine.)
  let queue: Promise<void> = Promise.resolve();
  let waiting: Promise<void> | undefined;
  const reload = () => {
    if (waiting) return waiting;
    const run = queue.then(async () => {
      waiting = undefined;
      state.cache = await loadSchemaCache(ctx.adminPool, options.schemas);
      state.plans.clear();
      executor.reset();
    });
    waiting = run;
    queue = run.catch(() => undefined);
    return run;
  };
  const listener = await listenForReloads(ctx, reload);
  return {
    prefix: "/rest/v1",
    handler: (req, res, gw) => handleRest(state, req, res, gw),
    close: async () => {
      await listener.close();
      await executor.end();
    },
  };
}

function restOptions(raw: Record<string, unknown>): RestOptions {
  const api = (raw.api ?? {}) as Record<string, unknown>;
  const list = (value: unknown, fallback: string[]) =>
    Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : fallback;
  const maxRows = typeof api.max_rows === "number" && api.max_rows > 0 ? api.max_rows : undefined;
  return { schemas: list(api.schemas, ["public"]), extraSearchPath: list(api.extra_search_path, ["public", "extensions"]), maxRows };
}

/** LISTEN pgrst on a dedicated admin connection; reconnects if the connection drops. */
async function listenForReloads(ctx: ServerContext, reload: () => Promise<void>): Promise<{ close: () => Promise<void> }> {
  let closed = false;
  let client: pg.PoolClient | undefined;
  const connect = async (): Promise<void> => {
    try {
      const connected = await ctx.adminPool.connect();
      client = connected;
      connected.on("notification", (message: pg.Notification) => {
        if (message.channel !== "pgrst") return;
        const payload = (message.payload ?? "").trim();
        // PostgREST reloads its in-database config (e.g. pgrst.db_aggregates_enabled) on `reload config`.
        if (payload === "" || payload === "reload schema" || payload === "reload config")
          reload().catch((error) => console.error("[rest] schema reload failed:", error.message));
      });
      connected.on("error", () => {
        client?.release(true);
        client = undefined;
        if (!closed) setTimeout(() => void connect(), 1000);
      });
      await connected.query("listen pgrst");
      if (!closed) await reload();
    } catch (error) {
      // Also covers a failed schema load: retried until it succeeds.
      console.error("[rest] listen failed:", (error as Error).message);
      client?.release(true);
      client = undefined;
      if (!closed) setTimeout(() => void connect(), 1000);
    }
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      client?.release(true);
    },
  };
}
