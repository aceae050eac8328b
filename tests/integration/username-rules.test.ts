// The form's username rules and the database's constraints must agree, word for word.
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { reservedUsernames } from "../../lib/validation/profile";
import { databaseUrl } from "../helpers/stack";

const client = new pg.Client({ connectionString: databaseUrl });
beforeAll(() => client.connect());
afterAll(() => client.end());

test("the reserved words of lib/validation/profile.ts are exactly the database's", async () => {
  const { rows } = await client.query<{ definition: string }>(
    "select pg_get_functiondef('private.is_reserved_username(text)'::regprocedure) as definition",
  );
  const databaseWords = [...rows[0].definition.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
  expect(databaseWords).toEqual([...reservedUsernames].sort());
});

test("the database applies the same username format the form does", async () => {
  const { rows } = await client.query<{ candidate: string; allowed: boolean }>(
    `select candidate, candidate ~ '^[a-z0-9_]{3,24}$' and not private.is_reserved_username(candidate) as allowed
     from unnest($1::text[]) as candidate`,
    [["abc", "a_1", "ab", "Abc", "a-b-c", "x".repeat(24), "x".repeat(25), "settings"]],
  );
  expect(Object.fromEntries(rows.map((r) => [r.candidate, r.allowed]))).toEqual({
    abc: true,
    a_1: true,
    ab: false,
    Abc: false,
    "a-b-c": false,
    ["x".repeat(24)]: true,
    ["x".repeat(25)]: false,
    settings: false,
  });
});
