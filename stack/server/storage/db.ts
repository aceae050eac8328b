import type pg from "pg";
import type { Claims } from "../jwt.ts";
import { quoteIdent } from "../sql.ts";
import { fromPgError } from "./errors.ts";

/** Who a request acts as: the role and claims of its JWT (anon when it carried none). */
export interface Caller {
  role: string;
  claims: Claims;
  /** storage-api's `owner`: the JWT's `sub`. */
  owner?: string;
  /** Whether a valid JWT came with the request (storage-api's `isAuthenticated`). */
  authenticated: boolean;
}

export type Tx = pg.PoolClient & { actAs: (who: "caller" | "service") => Promise<void> };

const switchableRoles = new Set(["anon", "authenticated", "service_role"]);

/**
 * Runs `fn` in one transaction on the authenticator pool, as the caller's role with its claims in
 * `request.jwt.claims`, so storage.objects' RLS policies decide. `tx.actAs("service")` switches to
 * service_role (which bypasses RLS) for the reads Storage itself does as superuser — public buckets,
 * signed URLs — and `tx.actAs("caller")` switches back.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  caller: Caller,
  fn: (tx: Tx) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  const client = await pool.connect();
  const tx = client as Tx;
  tx.actAs = async (who) => {
    const role = who === "service" ? "service_role" : caller.role;
    await client.query(`set local role ${quoteIdent(role)}`);
  };
  let broken = false;
  try {
    if (!switchableRoles.has(caller.role)) throw Object.assign(new Error(`role "${caller.role}" does not exist`), { code: "42704" });
    // One round trip to open the transaction as the caller (a simple query may hold several statements).
    const setting = (name: string, value: string) => `set_config(${client.escapeLiteral(name)}, ${client.escapeLiteral(value)}, true)`;
    await client.query(
      `begin; select ${setting("request.jwt.claims", JSON.stringify(caller.claims))}, ${setting("request.jwt.claim.sub", caller.owner ?? "")}, ${setting("request.jwt.claim.role", caller.role)}; set local role ${quoteIdent(caller.role)}`,
    );
    const result = await fn(tx);
    await client.query(options.rollback ? "rollback" : "commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => {
      broken = true;
    });
    throw fromPgError(error);
  } finally {
    client.release(broken);
  }
}

/** storage-api's `testPermission`: runs the statements as the caller, then rolls them back. */
export function testPermission(pool: pg.Pool, caller: Caller, fn: (tx: Tx) => Promise<unknown>): Promise<unknown> {
  return inTransaction(pool, caller, fn, { rollback: true });
}
