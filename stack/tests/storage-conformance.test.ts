// Storage as the current storage-api answers storage-js: the paginated list-v2, user metadata `{}`
// for uploads without any, emptying that is queued, and the error for a request without a token,
// on fixture buckets and policies of this suite's own.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiUrl } from "./helpers/stack.ts";
import { adminQuery, filesOf, type StorageFixture, setupStorageFixture } from "./storage-fixtures.ts";

let fx: StorageFixture;

beforeAll(async () => {
  fx = await setupStorageFixture("conf");
  const files = ["a.txt", "a_b.txt", "axb.txt", "docs/one.txt", "docs/two.txt", "docs/deep/three.txt", "pics/p.txt", "z_last.txt"];
  for (const name of files) {
    const { error } = await fx.alice.client.storage.from(fx.privateBucket).upload(`${fx.alice.id}/${name}`, text(name));
    if (error) throw error;
  }
  await fx.bob.client.storage.from(fx.privateBucket).upload(`${fx.bob.id}/secret.txt`, text("bob's"));
});

afterAll(async () => {
  await fx?.teardown();
});

const text = (value: string) => new Blob([value], { type: "text/plain" });

const listV2 = (jwt: string | undefined, bucket: string, body: unknown) =>
  fetch(`${apiUrl}/storage/v1/object/list-v2/${bucket}`, {
    method: "POST",
    headers: { ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("POST /object/list-v2/{bucket}", () => {
  test("listV2 without a delimiter: every object under the prefix, in byte order, with metadata", async () => {
    const { data, error } = await fx.alice.client.storage.from(fx.privateBucket).listV2({ prefix: `${fx.alice.id}/` });
    expect(error).toBeNull();
    expect(data?.hasNext).toBe(false);
    expect(data?.folders).toEqual([]);
    expect(data?.objects.map((o) => o.name.slice(fx.alice.id.length + 1))).toEqual([
      "a.txt",
      "a_b.txt",
      "axb.txt",
      "docs/deep/three.txt",
      "docs/one.txt",
      "docs/two.txt",
      "pics/p.txt",
      "z_last.txt",
    ]);
    expect(data?.objects[0]).not.toHaveProperty("key");
    expect(data?.objects[0]).toMatchObject({
      id: expect.any(String),
      metadata: expect.objectContaining({ mimetype: "text/plain", size: 5 }),
      created_at: expect.any(String),
    });
  });

  test("with_delimiter: the folders once (ending in /) and the objects directly below the prefix", async () => {
    const { data } = await fx.alice.client.storage.from(fx.privateBucket).listV2({ prefix: `${fx.alice.id}/`, with_delimiter: true });
    expect(data?.folders).toEqual([
      { id: null, name: `${fx.alice.id}/docs/` },
      { id: null, name: `${fx.alice.id}/pics/` },
    ]);
    expect(data?.objects.map((o) => o.name.slice(fx.alice.id.length + 1))).toEqual(["a.txt", "a_b.txt", "axb.txt", "z_last.txt"]);
    // As storage.search_v2's rows: each object's `key` is its name within the listed folder; folders have none.
    expect(data?.objects.map((o) => o.key)).toEqual(["a.txt", "a_b.txt", "axb.txt", "z_last.txt"]);
    expect(data?.objects[0]).toMatchObject({ id: expect.any(String), metadata: expect.objectContaining({ size: 5 }) });
    const inner = await fx.alice.client.storage.from(fx.privateBucket).listV2({ prefix: `${fx.alice.id}/docs/`, with_delimiter: true });
    expect(inner.data?.folders).toEqual([{ id: null, name: `${fx.alice.id}/docs/deep/` }]);
    expect(inner.data?.objects.map((o) => o.name)).toEqual([`${fx.alice.id}/docs/one.txt`, `${fx.alice.id}/docs/two.txt`]);
    expect(inner.data?.objects.map((o) => o.key)).toEqual(["one.txt", "two.txt"]);
    // A prefix that is not a folder: the folders and objects whose names start with it, one level down.
    const partial = await fx.alice.client.storage.from(fx.privateBucket).listV2({ prefix: `${fx.alice.id}/d`, with_delimiter: true });
    expect(partial.data).toMatchObject({ hasNext: false, folders: [{ id: null, name: `${fx.alice.id}/docs/` }], objects: [] });
  });

  test("limit and cursor page through everything once; the cursor is storage-api's base64 token", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data, error } = await fx.alice.client.storage
        .from(fx.privateBucket)
        .listV2({ prefix: `${fx.alice.id}/`, with_delimiter: true, limit: 2, cursor });
      expect(error).toBeNull();
      seen.push(...(data?.folders ?? []).map((f) => f.name), ...(data?.objects ?? []).map((o) => o.name));
      cursor = data?.hasNext ? data.nextCursor : undefined;
      if (data?.hasNext) expect(Buffer.from(data.nextCursor!, "base64").toString()).toMatch(/^l:/);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((name) => name.slice(fx.alice.id.length + 1)).sort()).toEqual([
      "a.txt",
      "a_b.txt",
      "axb.txt",
      "docs/",
      "pics/",
      "z_last.txt",
    ]);
  });

  test("a prefix is matched literally (_ is not a wildcard); sortBy orders by a date column across pages", async () => {
    const literal = await fx.alice.client.storage.from(fx.privateBucket).listV2({ prefix: `${fx.alice.id}/a_` });
    expect(literal.data?.objects.map((o) => o.name)).toEqual([`${fx.alice.id}/a_b.txt`]);
    const newest = await fx.alice.client.storage
      .from(fx.privateBucket)
      .listV2({ prefix: `${fx.alice.id}/`, sortBy: { column: "created_at", order: "desc" }, limit: 1 });
    expect(newest.data?.objects.map((o) => o.name)).toEqual([`${fx.alice.id}/z_last.txt`]);
    const next = await fx.alice.client.storage
      .from(fx.privateBucket)
      .listV2({ prefix: `${fx.alice.id}/`, cursor: newest.data?.nextCursor, limit: 1 });
    expect(next.data?.objects.map((o) => o.name)).toEqual([`${fx.alice.id}/pics/p.txt`]);
  });

  test("row-level security decides: bob sees only his folder, anon sees nothing", async () => {
    const bob = await fx.bob.client.storage.from(fx.privateBucket).listV2({});
    expect(bob.data?.objects.map((o) => o.name)).toEqual([`${fx.bob.id}/secret.txt`]);
    const anon = await listV2(undefined, fx.privateBucket, {});
    expect(anon.status).toBe(400);
    expect(await anon.json()).toEqual({ statusCode: "403", code: "AccessDenied", error: "Unauthorized", message: "Invalid Compact JWS" });
  });

  test.each([
    [{ limit: 0 }, "body/limit must be >= 1"],
    [{ limit: "many" }, "body/limit must be integer"],
    [{ prefix: 7 }, "body/prefix must be string"],
    [{ with_delimiter: "yes" }, "body/with_delimiter must be boolean"],
    [{ sortBy: { order: "asc" } }, "body/sortBy must have required property 'column'"],
    [{ sortBy: { column: "size" } }, "body/sortBy/column must be equal to one of the allowed values"],
  ])("bad input %j is refused: %s", async (body, message) => {
    const response = await listV2(fx.alice.jwt, fx.privateBucket, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: "400", code: "InvalidRequest", error: "Bad Request", message });
  });

  test("a cursor that is not storage-api's token is an invalid parameter", async () => {
    const response = await listV2(fx.alice.jwt, fx.privateBucket, { cursor: Buffer.from("garbage").toString("base64") });
    expect(await response.json()).toEqual({
      statusCode: "400",
      code: "InvalidParameter",
      error: "InvalidParameter",
      message: "Invalid Parameter continuation token",
    });
  });
});

describe("objects and buckets", () => {
  test("an upload without metadata has metadata {} (not null); with metadata, that metadata", async () => {
    const plain = await fx.alice.client.storage.from(fx.privateBucket).info(`${fx.alice.id}/a.txt`);
    expect(plain.error).toBeNull();
    expect(plain.data?.metadata).toEqual({});
    await fx.alice.client.storage.from(fx.privateBucket).upload(`${fx.alice.id}/tagged.txt`, text("t"), { metadata: { kind: "note" } });
    expect((await fx.alice.client.storage.from(fx.privateBucket).info(`${fx.alice.id}/tagged.txt`)).data?.metadata).toEqual({
      kind: "note",
    });
    const [row] = await adminQuery<{ user_metadata: unknown }>(
      "select user_metadata from storage.objects where bucket_id = $1 and name = $2",
      [fx.privateBucket, `${fx.alice.id}/a.txt`],
    );
    expect(row.user_metadata).toEqual({});
  });

  test("emptyBucket answers that emptying was queued, and the objects go (their files too)", async () => {
    const bucket = "fx-st-conf-empty";
    await fx.service.storage.createBucket(bucket);
    await fx.service.storage.from(bucket).upload("x/one.txt", text("1"));
    await fx.service.storage.from(bucket).upload("two.txt", text("2"));
    try {
      expect(await fx.service.storage.emptyBucket(bucket)).toEqual({
        data: { message: "Empty bucket has been queued. Completion may take up to an hour." },
        error: null,
      });
      expect(await adminQuery("select name from storage.objects where bucket_id = $1", [bucket])).toEqual([]);
      expect(filesOf(bucket)).toEqual([]);
      // Already empty: the same answer.
      expect((await fx.service.storage.emptyBucket(bucket)).data).toEqual({
        message: "Empty bucket has been queued. Completion may take up to an hour.",
      });
    } finally {
      await fx.service.storage.deleteBucket(bucket);
    }
  });

  test("emptyBucket of a bucket the caller cannot see is Bucket not found; a missing token is refused", async () => {
    expect((await fx.alice.client.storage.emptyBucket(fx.privateBucket)).error).toMatchObject({
      statusCode: "404",
      message: "Bucket not found",
    });
    expect((await fx.service.storage.emptyBucket("fx-st-conf-nowhere")).error).toMatchObject({
      statusCode: "404",
      message: "Bucket not found",
    });
    const noToken = await fetch(`${apiUrl}/storage/v1/bucket/${fx.privateBucket}/empty`, { method: "POST" });
    expect(noToken.status).toBe(400);
    expect(await noToken.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "Invalid Compact JWS",
    });
  });

  test("a request without a token is refused with jose's message, as storage-api verifies it", async () => {
    const response = await fetch(`${apiUrl}/storage/v1/object/list/${fx.privateBucket}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ prefix: "" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "Invalid Compact JWS",
    });
    const garbage = await fetch(`${apiUrl}/storage/v1/bucket`, { headers: { Authorization: "Bearer not-a-jwt" } });
    expect(await garbage.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "Invalid Compact JWS",
    });
  });
});
