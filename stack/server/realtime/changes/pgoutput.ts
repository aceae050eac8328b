// Decodes the messages of PostgreSQL's built-in logical decoding plugin, pgoutput (protocol 1):
// https://www.postgresql.org/docs/15/protocol-logicalrep-message-formats.html

/** A column value in text form; `undefined` marks an unchanged TOASTed value the WAL left out. */
export type TupleValue = string | null | undefined;

export interface RelationColumn {
  name: string;
  typeOid: number;
  /** Part of the replica identity (the primary key unless the table says otherwise). */
  isKey: boolean;
}

export type PgOutputMessage =
  | { tag: "begin"; commitTime: Date; xid: number }
  | { tag: "commit" }
  | { tag: "relation"; relid: number; schema: string; table: string; replicaIdentity: string; columns: RelationColumn[] }
  | { tag: "insert"; relid: number; newTuple: TupleValue[] }
  | { tag: "update"; relid: number; oldTuple?: TupleValue[]; oldIsKeyOnly: boolean; newTuple: TupleValue[] }
  | { tag: "delete"; relid: number; oldTuple: TupleValue[]; oldIsKeyOnly: boolean }
  | { tag: "other" };

/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
const pgEpochMicros = 946_684_800_000_000n;

class Reader {
  offset = 0;
  readonly buf: Buffer;
  constructor(buf: Buffer) {
    this.buf = buf;
  }
  u8(): number {
    return this.buf.readUInt8(this.offset++);
  }
  i16(): number {
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  i32(): number {
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  u32(): number {
    const v = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  i64(): bigint {
    const v = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return v;
  }
  cstring(): string {
    const end = this.buf.indexOf(0, this.offset);
    const s = this.buf.toString("utf8", this.offset, end);
    this.offset = end + 1;
    return s;
  }
  bytes(length: number): Buffer {
    const b = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return b;
  }
}

function timestamp(micros: bigint): Date {
  return new Date(Number((micros + pgEpochMicros) / 1000n));
}

function tuple(r: Reader): TupleValue[] {
  const count = r.i16();
  const values: TupleValue[] = [];
  for (let i = 0; i < count; i++) {
    const kind = String.fromCharCode(r.u8());
    if (kind === "n") values.push(null);
    else if (kind === "u") values.push(undefined);
    else values.push(r.bytes(r.i32()).toString("utf8")); // 't' (text); 'b' is never requested
  }
  return values;
}

export function decodePgOutput(buf: Buffer): PgOutputMessage {
  const r = new Reader(buf);
  const tag = String.fromCharCode(r.u8());
  switch (tag) {
    case "B": {
      r.i64(); // final LSN
      const commitTime = timestamp(r.i64());
      return { tag: "begin", commitTime, xid: r.u32() };
    }
    case "C":
      return { tag: "commit" };
    case "R": {
      const relid = r.u32();
      const schema = r.cstring();
      const table = r.cstring();
      const replicaIdentity = String.fromCharCode(r.u8());
      const count = r.i16();
      const columns: RelationColumn[] = [];
      for (let i = 0; i < count; i++) {
        const flags = r.u8();
        const name = r.cstring();
        const typeOid = r.u32();
        r.i32(); // type modifier
        columns.push({ name, typeOid, isKey: (flags & 1) === 1 });
      }
      return { tag: "relation", relid, schema, table, replicaIdentity, columns };
    }
    case "I": {
      const relid = r.u32();
      r.u8(); // 'N'
      return { tag: "insert", relid, newTuple: tuple(r) };
    }
    case "U": {
      const relid = r.u32();
      let kind = String.fromCharCode(r.u8());
      let oldTuple: TupleValue[] | undefined;
      const oldIsKeyOnly = kind === "K";
      if (kind === "K" || kind === "O") {
        oldTuple = tuple(r);
        kind = String.fromCharCode(r.u8());
      }
      return { tag: "update", relid, oldTuple, oldIsKeyOnly, newTuple: tuple(r) };
    }
    case "D": {
      const relid = r.u32();
      const kind = String.fromCharCode(r.u8());
      return { tag: "delete", relid, oldIsKeyOnly: kind === "K", oldTuple: tuple(r) };
    }
    default:
      return { tag: "other" };
  }
}
