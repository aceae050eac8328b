import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import pg from "pg";
import { type PgOutputMessage, decodePgOutput } from "./pgoutput.ts";

/**
 * A logical replication stream of a publication (`supabase_realtime` for postgres_changes), decoded
 * by pgoutput, over the streaming replication protocol (push, so an idle database costs nothing).
 * By default the slot is TEMPORARY: Postgres drops it when this connection ends, including when
 * Postgres itself dies. A named `slot` is permanent instead: it outlives the connection and a
 * restart of Postgres, and a new stream on it resumes after the last position this one confirmed.
 * node-postgres does the connection and authentication; the copy-both stream that follows
 * START_REPLICATION is read and written here, since node-postgres does not speak it.
 */
export interface ReplicationOptions {
  host: string;
  port: number;
  user: string;
  password: string;
  publication: string;
  onMessage: (message: PgOutputMessage) => void;
  onEnd: (error: Error) => void;
  /** A permanent slot to create, or to resume when it exists. */
  slot?: string;
}

export interface ReplicationStream {
  stop(): void;
}

const statusIntervalMs = 10_000;

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function errorText(body: Buffer): string {
  const fields: Record<string, string> = {};
  let offset = 0;
  while (offset < body.length && body[offset] !== 0) {
    const code = String.fromCharCode(body[offset]);
    const end = body.indexOf(0, offset + 1);
    fields[code] = body.toString("utf8", offset + 1, end);
    offset = end + 1;
  }
  return fields.M ?? "replication error";
}

export async function startReplication(options: ReplicationOptions): Promise<ReplicationStream> {
  const client = new pg.Client({
    host: options.host,
    port: options.port,
    user: options.user,
    password: options.password,
    database: "postgres",
    replication: "database",
    connectionTimeoutMillis: 5000,
  } as pg.ClientConfig);
  client.on("error", () => undefined);
  await client.connect();
  const slot = options.slot ?? `realtime_stack_${randomBytes(6).toString("hex")}`;
  try {
    await client.query(`CREATE_REPLICATION_SLOT ${slot} ${options.slot ? "" : "TEMPORARY "}LOGICAL pgoutput NOEXPORT_SNAPSHOT`);
  } catch (error) {
    // 42710: the permanent slot exists already, so the stream resumes it
    if (!options.slot || (error as { code?: string }).code !== "42710") {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  socket.removeAllListeners("data");
  let buffer: Buffer = Buffer.alloc(0);
  let lastLsn = 0n;
  let ended = false;

  const sendStatus = () => {
    if (ended || socket.destroyed) return;
    const body = Buffer.alloc(34);
    body.write("r", 0, "latin1");
    body.writeBigUInt64BE(lastLsn, 1);
    body.writeBigUInt64BE(lastLsn, 9);
    body.writeBigUInt64BE(lastLsn, 17);
    body.writeBigInt64BE(BigInt(Date.now() - 946_684_800_000) * 1000n, 25);
    body.writeUInt8(0, 33);
    socket.write(message("d", body));
  };
  const timer = setInterval(sendStatus, statusIntervalMs);
  timer.unref();

  const end = (error: Error) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    socket.destroy();
    options.onEnd(error);
  };

  const onCopyData = (data: Buffer) => {
    const kind = String.fromCharCode(data[0]);
    if (kind === "w") {
      const walEnd = data.readBigUInt64BE(9);
      if (walEnd > lastLsn) lastLsn = walEnd;
      options.onMessage(decodePgOutput(data.subarray(25)));
    } else if (kind === "k") {
      const walEnd = data.readBigUInt64BE(1);
      if (walEnd > lastLsn) lastLsn = walEnd;
      if (data[17] === 1) sendStatus();
    }
  };

  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    while (buffer.length >= 5) {
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) break;
      const type = String.fromCharCode(buffer[0]);
      const body = buffer.subarray(5, length + 1);
      buffer = buffer.subarray(length + 1);
      try {
        if (type === "d") onCopyData(body);
        else if (type === "E") return end(new Error(errorText(body)));
        else if (type === "c" || type === "Z") return end(new Error("replication stream ended"));
      } catch (error) {
        return end(error as Error);
      }
    }
  });
  socket.on("close", () => end(new Error("connection to the database closed")));
  socket.on("error", (error) => end(error));

  const query = `START_REPLICATION SLOT ${slot} LOGICAL 0/0 (proto_version '1', publication_names '"${options.publication}"')`;
  socket.write(message("Q", Buffer.from(`${query}\0`, "utf8")));

  return {
    stop() {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      socket.destroy();
    },
  };
}
