import type pg from "pg";
import type { Claims } from "../jwt.ts";

/**
 * Private-channel authorization as Realtime does it: the project's RLS policies on
 * realtime.messages decide. Read: rows for the topic are inserted (as the admin), then selected
 * as the caller's role with its claims and `realtime.topic` set. Write: rows are inserted as the
 * caller. Everything is rolled back.
 */
export interface ReadPolicies {
  broadcast: boolean;
  presence: boolean;
}
export interface WritePolicies {
  broadcast: boolean;
  presence: boolean;
}

async function asCaller<T>(
  pool: pg.Pool,
  topic: string,
  claims: Claims,
  work: (client: pg.PoolClient) => Promise<T>,
  before?: (client: pg.PoolClient) => Promise<void>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    await before?.(client);
    await client.query(
      "select set_config('role', $1, true), set_config('realtime.topic', $2, true), set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true), set_config('request.jwt.claim.role', $1, true)",
      [String(claims.role), topic, JSON.stringify(claims), typeof claims.sub === "string" ? claims.sub : ""],
    );
    return await work(client);
  } finally {
    await client.query("rollback").catch(() => undefined);
    client.release();
  }
}

export async function readPolicies(pool: pg.Pool, topic: string, claims: Claims): Promise<ReadPolicies> {
  let ids: { broadcast: string; presence: string } = { broadcast: "", presence: "" };
  const visible = await asCaller(
    pool,
    topic,
    claims,
    async (client) => {
      const { rows } = await client.query<{ id: string }>(
        "select id::text from realtime.messages where topic = $1 and id = any($2::uuid[])",
        [topic, [ids.broadcast, ids.presence]],
      );
      return new Set(rows.map((r) => r.id));
    },
    async (client) => {
      const { rows } = await client.query<{ id: string; extension: string }>(
        "insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true), ($1, 'presence', true) returning id::text, extension",
        [topic],
      );
      ids = { broadcast: rows.find((r) => r.extension === "broadcast")!.id, presence: rows.find((r) => r.extension === "presence")!.id };
    },
  );
  return { broadcast: visible.has(ids.broadcast), presence: visible.has(ids.presence) };
}

export async function writePolicies(pool: pg.Pool, topic: string, claims: Claims): Promise<WritePolicies> {
  return await asCaller(pool, topic, claims, async (client) => {
    const canInsert = async (extension: string) => {
      await client.query("savepoint rt_write");
      try {
        await client.query("insert into realtime.messages (topic, extension, private) values ($1, $2, true)", [topic, extension]);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === "42501") return false;
        throw error;
      } finally {
        await client.query("rollback to savepoint rt_write");
      }
    };
    return { broadcast: await canInsert("broadcast"), presence: await canInsert("presence") };
  });
}
