// The postgres_changes payload, built as JSON text once per (change, role) and shared by every
// subscriber it goes to.
import type { TupleValue } from "./pgoutput.ts";
import type { Relation } from "./relations.ts";
import { valueJson } from "./values.ts";

type ChangeType = "INSERT" | "UPDATE" | "DELETE";
export type Row = Map<string, TupleValue>;

export interface Change {
  type: ChangeType;
  relation: Relation;
  commitTimestamp: string;
  newRow?: Row;
  oldRow?: Row;
  oldIsKeyOnly: boolean;
}

export function rowOf(relation: Relation, tuple: TupleValue[] | undefined, keyOnly = false): Row | undefined {
  if (!tuple) return undefined;
  const row: Row = new Map();
  relation.columns.forEach((column, i) => {
    if (!keyOnly || column.isKey) row.set(column.name, tuple[i]);
  });
  return row;
}

function recordJson(change: Change, row: Row | undefined, columns: Set<string>, fallback?: Row): string {
  const parts: string[] = [];
  for (const column of change.relation.columns) {
    if (!columns.has(column.name) || !row?.has(column.name)) continue;
    let value = row.get(column.name);
    if (value === undefined) value = fallback?.get(column.name);
    if (value === undefined) continue;
    parts.push(`${JSON.stringify(column.name)}:${valueJson(column.type, value)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * A change's `data` as Realtime sends it to one role, given the columns that role may select:
 * values as to_jsonb renders them, `columns` with their pg_type names, `old_record` for updates and
 * deletes, and Realtime's 400/401 error records.
 */
export function changeData(change: Change, selectable: Set<string>): string {
  const { relation } = change;
  const head = `"schema":${JSON.stringify(relation.schema)},"table":${JSON.stringify(relation.table)}`;
  if (change.type !== "DELETE") {
    if (relation.primaryKey.length === 0) return `{${head},"type":"${change.type}","errors":["Error 400: Bad Request, no primary key"]}`;
    if (!relation.primaryKey.every((c) => selectable.has(c)))
      return `{${head},"type":"${change.type}","errors":["Error 401: Unauthorized"]}`;
  }
  const columns = relation.columns.filter((c) => selectable.has(c.name)).map((c) => ({ name: c.name, type: c.type }));
  let body = `{${head},"commit_timestamp":${JSON.stringify(change.commitTimestamp)},"type":"${change.type}","columns":${JSON.stringify(columns)}`;
  if (change.type !== "DELETE") body += `,"record":${recordJson(change, change.newRow, selectable, change.oldRow)}`;
  if (change.type === "UPDATE") {
    // Without REPLICA IDENTITY FULL the old row is just its key (Postgres sends the old key only when it changed).
    const old = change.oldRow ?? new Map(relation.primaryKey.map((name) => [name, change.newRow?.get(name)]));
    body += `,"old_record":${recordJson(change, old, selectable)}`;
  }
  if (change.type === "DELETE") {
    // Deletes are not RLS-checked (the row is gone), so under RLS only the primary key goes out.
    const allowed = relation.rlsEnabled ? new Set(relation.primaryKey.filter((c) => selectable.has(c))) : selectable;
    body += `,"old_record":${recordJson(change, change.oldRow, allowed)}`;
  }
  return `${body},"errors":null}`;
}
