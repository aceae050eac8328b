import pg from "pg";
import type { StackConfig } from "../lib/config.ts";
import { dbPassword } from "../lib/postgres.ts";

/** What every service of the API server shares: the project's config and database pools. */
export interface ServerContext {
  config: StackConfig;
  /** Connections as `authenticator`, which switches to anon/authenticated/service_role per request. */
  authenticatorPool: pg.Pool;
  /** Connections as `postgres`, for work the services do on their own behalf (auth tables, buckets). */
  adminPool: pg.Pool;
}

export function createServerContext(config: StackConfig): ServerContext {
  const base = { host: "127.0.0.1", port: config.dbPort, database: "postgres", password: dbPassword, max: 20 };
  return {
    config,
    authenticatorPool: new pg.Pool({ ...base, user: "authenticator" }),
    adminPool: new pg.Pool({ ...base, user: "postgres", max: 10 }),
  };
}
