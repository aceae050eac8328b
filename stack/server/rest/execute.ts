import { createHash } from "node:crypto";
import pg from "pg";
import type { ApiRequest, RestOptions } from "./request.ts";
import { quoteIdent } from "./sql.ts";
import type { Statement, StatementResult } from "./statement.ts";

/**
 * Step 4 of a request: runs its statement against Postgres as the caller's role. Reads use two round trips on a
 * connection of the service's own pool: session-level settings (role, claims, headers, read-only),
 * then the single statement, which is its own transaction. Requests that may have to roll back
 * (singular writes, max-affected) run inside an explicit transaction with `set local` semantics.
 */

export interface RequestSettings {
  role: string;
  claims: string;
  sub: string;
  claimRole: string;
  method: string;
  path: string;
  headers: string;
  cookies: string;
  searchPath: string;
  /** The impersonated role's own settings (e.g. statement_timeout), as a JSON object of name → value. */
  roleSettings: string;
  readOnly: boolean;
}

export function preparedName(sql: string): string {
  return statementName(sql);
}

/** What Postgres sees of the request: role, claims, headers, cookies, path, search_path, role settings. */
export function settingsFor(
  request: ApiRequest,
  options: RestOptions,
  roleSettings: Map<string, string>,
  readOnly: boolean,
): RequestSettings {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers))
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(", ") : value;
  const cookies: Record<string, string> = {};
  for (const part of (headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  const searchPath = [...new Set([request.schema, ...options.extraSearchPath])].map(quoteIdent).join(", ");
  const claims = request.caller.claims;
  return {
    role: request.caller.role,
    claims: JSON.stringify(claims),
    sub: typeof claims.sub === "string" ? claims.sub : "",
    claimRole: request.caller.role,
    method: request.method,
    path: request.path || "/",
    headers: JSON.stringify(headers),
    cookies: JSON.stringify(cookies),
    searchPath,
    roleSettings: roleSettings.get(request.caller.role) ?? roleSettings.get("") ?? "{}",
    readOnly,
  };
}

/**
 * Runs a request's statement (a repeated read as a named prepared statement). With count=planned the
 * total is the planner's estimate; with count=estimated the exact count up to max_rows and beyond it
 * (or with no max_rows) the larger of the count and the estimate — PostgREST's rule.
 */
export async function runStatement(
  executor: Executor,
  settings: RequestSettings,
  statement: Statement,
  prepare?: boolean,
): Promise<StatementResult> {
  const result = await executor.run(settings, statement.sql, statement.values, {
    transactional: statement.transactional,
    check: statement.check,
    prepare,
    name: statement.name,
  });
  const row = result.rows[0];
  const explain = statement.explain;
  if (explain && row && (explain.count === "planned" || explain.maxRows === undefined || Number(row.total) > explain.maxRows)) {
    const explained = await executor.run(settings, explain.sql, explain.values, { transactional: false });
    const planned = Math.round(Number((explained.rows[0]?.["QUERY PLAN"] as { Plan: { "Plan Rows": number } }[])[0].Plan["Plan Rows"]));
    row.total = explain.count === "planned" ? planned : Math.max(Number(row.total), planned);
  }
  return result;
}

const settingsSql = (local: boolean) =>
  `select set_config('role', $1, ${local}), set_config('request.jwt.claims', $2, ${local}), set_config('request.jwt.claim.sub', $3, ${local}),
   set_config('request.jwt.claim.role', $4, ${local}), set_config('request.method', $5, ${local}), set_config('request.path', $6, ${local}),
   set_config('request.headers', $7, ${local}), set_config('request.cookies', $8, ${local}), set_config('search_path', $9, ${local}),
   (select count(set_config(key, value, ${local})) from json_each_text($10::json))`;
const sessionSettings = settingsSql(false);
const localSettings = settingsSql(true);

const statementName = (sql: string) => `pgrst_${createHash("sha1").update(sql).digest("base64url").slice(0, 20)}`;

function settingValues(s: RequestSettings): string[] {
  return [s.role, s.claims, s.sub, s.claimRole, s.method, s.path, s.headers, s.cookies, s.searchPath, s.roleSettings];
}

/**
 * The session settings each pooled connection last received. A request whose settings are identical
 * (same role, claims, headers, path…) skips that round trip. Claims are part of the key, so one
 * caller's session state is never reused for another caller.
 */
const appliedSettings = new WeakMap<pg.PoolClient, string>();

export class Executor {
  private pool: pg.Pool;
  private readonly options: pg.PoolConfig;
  /** How often each statement text was seen: texts that repeat become named prepared statements. */
  private readonly seen = new Map<string, number>();

  constructor(options: pg.PoolConfig) {
    this.options = options;
    this.pool = this.createPool();
  }

  private createPool(): pg.Pool {
    const pool = new pg.Pool(this.options);
    pool.on("error", (error) => console.error("[rest] pool:", error.message));
    return pool;
  }

  /**
   * After a schema reload: fresh connections, so no prepared statement planned against the old
   * schema (e.g. a column whose type changed) outlives it. In-flight requests finish on the old pool.
   */
  reset(): void {
    const old = this.pool;
    this.pool = this.createPool();
    this.seen.clear();
    void old.end().catch(() => undefined);
  }

  /** Runs `sql` with `values`; `check` may throw to roll the transaction back (then `transactional` must be set). */
  async run(
    settings: RequestSettings,
    sql: string,
    values: unknown[],
    options: { transactional: boolean; prepare?: boolean; name?: string; check?: (result: StatementResult) => void },
  ): Promise<StatementResult> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      const prepare = options.prepare ?? this.repeats(sql);
      const statement = prepare ? { name: options.name ?? statementName(sql), text: sql, values } : { text: sql, values };
      if (!options.transactional) {
        const key = `${settings.readOnly}\u0000${settingValues(settings).join("\u0000")}`;
        if (appliedSettings.get(client) !== key) {
          appliedSettings.delete(client);
          await client.query({
            name: settings.readOnly ? "pgrst_settings_ro" : "pgrst_settings_rw",
            text: `${sessionSettings}, set_config('default_transaction_read_only', '${settings.readOnly ? "on" : "off"}', false)`,
            values: settingValues(settings),
          });
          appliedSettings.set(client, key);
        }
        const result = await client.query(statement);
        const out = { rows: result.rows, rowCount: result.rowCount ?? 0 };
        options.check?.(out);
        return out;
      }
      await client.query(settings.readOnly ? "begin read only" : "begin read write");
      try {
        await client.query({ name: "pgrst_settings_local", text: localSettings, values: settingValues(settings) });
        const result = await client.query(statement);
        const out = { rows: result.rows, rowCount: result.rowCount ?? 0 };
        options.check?.(out);
        await client.query("commit");
        return out;
      } catch (error) {
        await client.query("rollback").catch(() => (broken = true));
        throw error;
      }
    } catch (error) {
      if (error instanceof Error && !(error as { code?: string }).code && !(error as { status?: number }).status) broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private repeats(sql: string): boolean {
    const count = (this.seen.get(sql) ?? 0) + 1;
    if (this.seen.size >= 5000 && count === 1) this.seen.clear();
    this.seen.set(sql, count);
    return count > 1;
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}
