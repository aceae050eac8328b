// A live update reaches a page's code from the socket's message handler: anything thrown there would
// stop the other listeners of the same message and surface as an uncaught error. So each update is
// checked for the shape the page relies on and handed over inside a guard: one that does not fit, or
// that the page cannot take, is dropped and logged (the next fetch through REST shows the truth).

type Guard<T> = (payload: unknown) => payload is T;

const operations = new Set(["INSERT", "UPDATE", "DELETE"]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRow = (value: unknown) => value === null || (isObject(value) && typeof value.id === "string");

/** A row change as realtime.broadcast_changes sends it: a known table and operation, rows with ids (or null). */
export function rowChangeOf<T extends { table: string }>(tables: readonly T["table"][]): Guard<T> {
  return (payload): payload is T =>
    isObject(payload) &&
    tables.includes(payload.table as T["table"]) &&
    operations.has(payload.operation as string) &&
    isRow(payload.record) &&
    isRow(payload.old_record) &&
    (payload.record !== null || payload.old_record !== null);
}

/** A change to someone's membership, as the database broadcasts it. */
export const isMembershipChange: Guard<{ operation: string; room_id: string; user_id: string; role: unknown }> = (
  payload,
): payload is { operation: string; room_id: string; user_id: string; role: unknown } =>
  isObject(payload) &&
  operations.has(payload.operation as string) &&
  typeof payload.room_id === "string" &&
  typeof payload.user_id === "string";

/** Someone's standing in a room changed (a timeout given or lifted): ids only. */
export const isStandingChange: Guard<{ room_id: string; user_id: string }> = (payload): payload is { room_id: string; user_id: string } =>
  isObject(payload) && typeof payload.room_id === "string" && typeof payload.user_id === "string";

/** A listening session's row: an id and a room. */
export const isSessionRow: Guard<{ id: string; room_id: string }> = (payload): payload is { id: string; room_id: string } =>
  isObject(payload) && typeof payload.id === "string" && typeof payload.room_id === "string";

/** Hands `payload` to `take` if it fits `guard`; drops and logs it otherwise, or if `take` throws. */
export function deliver<T>(what: string, payload: unknown, guard: Guard<T>, take: (update: T) => void): void {
  if (!guard(payload)) return console.warn(`Dropped a live ${what} update that does not have the expected shape`, payload);
  try {
    take(payload);
  } catch (error) {
    console.warn(`Dropped a live ${what} update this page could not show`, error);
  }
}
