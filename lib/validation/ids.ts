// Row ids. No zod here: pages and browser code (the live feed's rows, a feed cursor) check ids
// too, and zod must not load with a page. The schema form of the same rule is ./uuid-schema.ts.

/** A row id as Postgres writes a uuid (lower-case, hyphenated): what every table here uses. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for an id that could name a row; anything else is refused before it reaches a query. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}
