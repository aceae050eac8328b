// Storage conformance: storage-js (through supabase-js) against the stack's /storage/v1, as anon,
// as two signed-in users and as the service role, on fixture buckets and policies of its own.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anonClient, anonKey, apiUrl, config, secretKey } from "./helpers/stack.ts";
import { adminQuery, filesOf, type StorageFixture, setupStorageFixture, userJwt } from "./storage-fixtures.ts";
import { signHs256 } from "../lib/keys.ts";

let fx: StorageFixture;

beforeAll(async () => {
  fx = await setupStorageFixture("main");
});

afterAll(async () => {
  await fx?.teardown();
});

const text = (value: string) => new Blob([value], { type: "text/plain" });

describe("buckets from config.toml", () => {
  test("are created with their public flag, size limit and mime types", async () => {
    const { data, error } = await fx.service.storage.listBuckets();
    expect(error).toBeNull();
    const byId = Object.fromEntries((data ?? []).map((bucket) => [bucket.id, bucket]));
    expect(byId.avatars).toMatchObject({
      id: "avatars",
      name: "avatars",
      public: true,
      file_size_limit: 2 * 1024 * 1024,
      allowed_mime_types: ["image/png", "image/jpeg", "image/webp", "image/gif"],
    });
    expect(byId["room-covers"]).toMatchObject({
      public: true,
      file_size_limit: 5 * 1024 * 1024,
      allowed_mime_types: ["image/png", "image/jpeg", "image/webp"],
    });
    expect(byId.media).toMatchObject({ public: false, file_size_limit: 50 * 1024 * 1024, allowed_mime_types: ["audio/*", "video/*"] });
  });

  test("anon and users see no bucket (storage.buckets has no policies)", async () => {
    expect((await anonClient().storage.listBuckets()).data).toEqual([]);
    expect((await fx.alice.client.storage.listBuckets()).data).toEqual([]);
  });
});

describe("upload and download", () => {
  test("a user uploads into their folder (multipart) and downloads it; the other user and anon cannot", async () => {
    const path = `${fx.alice.id}/notes/hello.txt`;
    const { data, error } = await fx.alice.client.storage.from(fx.privateBucket).upload(path, text("hello alice"));
    expect(error).toBeNull();
    expect(data).toEqual({ path, id: expect.stringMatching(/^[0-9a-f-]{36}$/), fullPath: `${fx.privateBucket}/${path}` });

    const own = await fx.alice.client.storage.from(fx.privateBucket).download(path);
    expect(await own.data?.text()).toBe("hello alice");

    for (const client of [fx.bob.client, anonClient()]) {
      const denied = await client.storage.from(fx.privateBucket).download(path);
      expect(denied.data).toBeNull();
      expect(denied.error).toMatchObject({ status: 400, statusCode: "404" });
    }
    const response = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${path}`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.bob.jwt}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: "404", code: "NoSuchKey", error: "not_found", message: "Object not found" });

    const [row] = await adminQuery<{ owner: string; owner_id: string; metadata: Record<string, unknown> }>(
      "select owner::text, owner_id, metadata from storage.objects where bucket_id = $1 and name = $2",
      [fx.privateBucket, path],
    );
    expect(row.owner).toBe(fx.alice.id);
    expect(row.owner_id).toBe(fx.alice.id);
    expect(row.metadata).toMatchObject({
      size: 11,
      mimetype: "text/plain",
      cacheControl: "max-age=3600",
      contentLength: 11,
      httpStatusCode: 200,
      eTag: '"9d082190e9eb2fd1a01a8657e5d726bb"',
    });
  });

  test("raw bodies keep their content type and cache control; a second upload is a 409 unless upserted", async () => {
    const path = `${fx.alice.id}/raw.json`;
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    const first = await bucket.upload(path, Buffer.from('{"v":1}'), { contentType: "application/json", cacheControl: "60" });
    expect(first.error).toBeNull();
    const again = await bucket.upload(path, Buffer.from('{"v":2}'), { contentType: "application/json" });
    expect(again.error).toMatchObject({ status: 400, statusCode: "409", message: "The resource already exists" });

    const replaced = await bucket.upload(path, Buffer.from('{"v":3}'), { contentType: "application/json", upsert: true });
    expect(replaced.error).toBeNull();
    const response = await fetch(`${apiUrl}/storage/v1/object/authenticated/${fx.privateBucket}/${path}`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("max-age=3600");
    expect(await response.text()).toBe('{"v":3}');
    // The replaced version's bytes are gone: one file for the object.
    expect(filesOf(fx.privateBucket).filter((file) => file.startsWith(`${fx.alice.id}/raw.json.`))).toHaveLength(1);

    const updated = await bucket.update(path, Buffer.from('{"v":4}'), { contentType: "application/json" });
    expect(updated.error).toBeNull();
    expect(await (await bucket.download(path)).data?.text()).toBe('{"v":4}');
  });

  test("RLS decides writes: another user's folder and anon are refused, nothing is stored", async () => {
    const path = `${fx.alice.id}/from-bob.txt`;
    const { error } = await fx.bob.client.storage.from(fx.privateBucket).upload(path, text("intruder"));
    expect(error).toMatchObject({ status: 400, statusCode: "403", message: "new row violates row-level security policy" });
    const anon = await anonClient().storage.from(fx.publicBucket).upload(`${fx.alice.id}/anon.txt`, text("anon"));
    expect(anon.error).toMatchObject({ status: 400, statusCode: "403", message: "new row violates row-level security policy" });
    expect(await adminQuery("select 1 from storage.objects where name in ($1, $2)", [path, `${fx.alice.id}/anon.txt`])).toEqual([]);
    expect(filesOf(fx.privateBucket).some((file) => file.includes("from-bob"))).toBe(false);
  });

  test("the service role bypasses RLS", async () => {
    const { error } = await fx.service.storage.from(fx.privateBucket).upload("system/config.txt", text("by service"));
    expect(error).toBeNull();
    expect(await (await fx.service.storage.from(fx.privateBucket).download("system/config.txt")).data?.text()).toBe("by service");
    const [row] = await adminQuery<{ owner_id: string | null }>(
      "select owner_id from storage.objects where bucket_id = $1 and name = 'system/config.txt'",
      [fx.privateBucket],
    );
    expect(row.owner_id).toBeNull();
  });

  test("download options: attachment name, ranges, conditional requests", async () => {
    const path = `${fx.alice.id}/range.txt`;
    await fx.alice.client.storage.from(fx.privateBucket).upload(path, text("0123456789"));
    const headers = { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}` };
    const url = `${apiUrl}/storage/v1/object/${fx.privateBucket}/${path}`;
    const attachment = await fetch(`${url}?download=my%20file.txt`, { headers });
    expect(attachment.headers.get("content-disposition")).toBe("attachment; filename=my%20file.txt; filename*=UTF-8''my%20file.txt;");
    const range = await fetch(url, { headers: { ...headers, Range: "bytes=2-5" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe("bytes 2-5/10");
    expect(await range.text()).toBe("2345");
    const etag = (await fetch(url, { headers })).headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(url, { headers: { ...headers, "If-None-Match": etag } })).status).toBe(304);
  });
});

describe("missing things and image transformations", () => {
  test("uploads to and reads from a bucket that does not exist are NoSuchBucket", async () => {
    const upload = await fx.alice.client.storage.from("fx-st-main-nowhere").upload(`${fx.alice.id}/x.txt`, text("x"));
    expect(upload.error).toMatchObject({ status: 400, statusCode: "404", message: "Bucket not found" });
    const download = await fetch(`${apiUrl}/storage/v1/object/fx-st-main-nowhere/x.txt`, { headers: { apikey: anonKey } });
    expect(await download.json()).toEqual({
      statusCode: "404",
      code: "NoSuchBucket",
      error: "Bucket not found",
      message: "Bucket not found",
    });
  });

  test("with [storage.image_transformation] on (local development's setting), a non-image answers as storage-api's image service refuses it", async () => {
    expect(config.raw.storage).toMatchObject({ image_transformation: { enabled: true } });
    const path = `${fx.alice.id}/picture.txt`;
    await fx.alice.client.storage.from(fx.publicBucket).upload(path, text("original"));
    const transformed = await fx.alice.client.storage.from(fx.publicBucket).download(path, { transform: { width: 10, height: 10 } });
    expect(transformed.data).toBeNull();
    expect(transformed.error).toMatchObject({ status: 400, message: "The source image is invalid or unsupported for rendering" });
    const { publicUrl } = fx.alice.client.storage.from(fx.publicBucket).getPublicUrl(path, { transform: { width: 10 } }).data;
    expect(publicUrl).toContain("/render/image/public/");
    const response = await fetch(publicUrl);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: "400",
      code: "InvalidRequest",
      error: "InvalidRequest",
      message: "The source image is invalid or unsupported for rendering",
    });
    // The original stays where it is.
    expect(await (await fetch(fx.alice.client.storage.from(fx.publicBucket).getPublicUrl(path).data.publicUrl)).text()).toBe("original");
  });
});

describe("public buckets", () => {
  test("public URLs serve without any key; private buckets have none", async () => {
    const path = `${fx.alice.id}/pic one.txt`;
    await fx.alice.client.storage.from(fx.publicBucket).upload(path, text("public bytes"));
    const { publicUrl } = fx.alice.client.storage.from(fx.publicBucket).getPublicUrl(path).data;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.get("cache-control")).toBe("max-age=3600");
    expect(await response.text()).toBe("public bytes");
    // Anyone with a key may also read it through the authenticated route, as the bucket is public.
    expect(await (await fx.bob.client.storage.from(fx.publicBucket).download(path)).data?.text()).toBe("public bytes");

    await fx.alice.client.storage.from(fx.privateBucket).upload(`${fx.alice.id}/secret.txt`, text("secret"));
    const hidden = await fetch(fx.alice.client.storage.from(fx.privateBucket).getPublicUrl(`${fx.alice.id}/secret.txt`).data.publicUrl);
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toEqual({
      statusCode: "404",
      code: "NoSuchBucket",
      error: "Bucket not found",
      message: "Bucket not found",
    });
  });
});

describe("info, exists and list", () => {
  beforeAll(async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    for (const name of ["b.txt", "a.txt", "c.txt", "sub/inner.txt"])
      await bucket.upload(`${fx.alice.id}/list/${name}`, text(`content of ${name}`), { metadata: { tag: name } });
    await fx.bob.client.storage.from(fx.privateBucket).upload(`${fx.bob.id}/list/bob.txt`, text("bob"));
  });

  test("info describes the object; exists says whether the caller can see it", async () => {
    const path = `${fx.alice.id}/list/a.txt`;
    const { data, error } = await fx.alice.client.storage.from(fx.privateBucket).info(path);
    expect(error).toBeNull();
    expect(data).toMatchObject({
      name: path,
      bucketId: fx.privateBucket,
      size: 16,
      contentType: "text/plain",
      cacheControl: "max-age=3600",
      metadata: { tag: "a.txt" },
    });
    expect(data?.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fx.alice.client.storage.from(fx.privateBucket).exists(path)).data).toBe(true);
    expect((await fx.bob.client.storage.from(fx.privateBucket).exists(path)).data).toBe(false);
    expect((await fx.alice.client.storage.from(fx.privateBucket).exists(`${fx.alice.id}/list/none.txt`)).data).toBe(false);
    const head = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${path}`, {
      method: "HEAD",
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("16");
  });

  test("list shows folders first, then files, with limit, offset, sort and search", async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    const all = await bucket.list(`${fx.alice.id}/list`);
    expect(all.error).toBeNull();
    expect(all.data?.map((item) => [item.name, item.id === null])).toEqual([
      ["sub", true],
      ["a.txt", false],
      ["b.txt", false],
      ["c.txt", false],
    ]);
    expect(all.data?.[1].metadata).toMatchObject({ size: 16, mimetype: "text/plain" });
    const page = await bucket.list(`${fx.alice.id}/list`, { limit: 2, offset: 1 });
    expect(page.data?.map((item) => item.name)).toEqual(["a.txt", "b.txt"]);
    const desc = await bucket.list(`${fx.alice.id}/list`, { sortBy: { column: "name", order: "desc" } });
    expect(desc.data?.map((item) => item.name)).toEqual(["sub", "c.txt", "b.txt", "a.txt"]);
    const search = await bucket.list(`${fx.alice.id}/list`, { search: "b" });
    expect(search.data?.map((item) => item.name)).toEqual(["b.txt"]);
    // RLS hides the other user's folder, even at the bucket root.
    expect((await bucket.list("")).data?.map((item) => item.name)).toEqual([fx.alice.id]);
    expect((await fx.bob.client.storage.from(fx.privateBucket).list(`${fx.alice.id}/list`)).data).toEqual([]);
    const everything = await fx.service.storage.from(fx.privateBucket).list("");
    expect(everything.data?.map((item) => item.name)).toEqual(expect.arrayContaining([fx.alice.id, fx.bob.id]));
  });
});

describe("move, copy and remove", () => {
  test("move renames within the caller's rights; the bytes follow", async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    await bucket.upload(`${fx.alice.id}/move/from.txt`, text("moving"));
    const moved = await bucket.move(`${fx.alice.id}/move/from.txt`, `${fx.alice.id}/move/to.txt`);
    expect(moved).toEqual({
      data: { message: "Successfully moved", Id: expect.any(String), Key: `${fx.alice.id}/move/to.txt` },
      error: null,
    });
    expect(await (await bucket.download(`${fx.alice.id}/move/to.txt`)).data?.text()).toBe("moving");
    expect((await bucket.exists(`${fx.alice.id}/move/from.txt`)).data).toBe(false);
    expect(
      filesOf(fx.privateBucket)
        .filter((file) => file.startsWith(`${fx.alice.id}/move/`))
        .map((file) => file.replace(/\.[0-9a-f-]{36}$/, "")),
    ).toEqual([`${fx.alice.id}/move/to.txt`]);

    const intoBob = await bucket.move(`${fx.alice.id}/move/to.txt`, `${fx.bob.id}/stolen.txt`);
    expect(intoBob.error).toMatchObject({ statusCode: "403", message: "new row violates row-level security policy" });
    const byBob = await fx.bob.client.storage.from(fx.privateBucket).move(`${fx.alice.id}/move/to.txt`, `${fx.bob.id}/stolen.txt`);
    expect(byBob.error).toMatchObject({ statusCode: "404", message: "Object not found" });
    expect(await (await bucket.download(`${fx.alice.id}/move/to.txt`)).data?.text()).toBe("moving");
  });

  test("copy makes an independent object owned by the caller", async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    await bucket.upload(`${fx.alice.id}/copy/src.txt`, text("copy me"));
    const copied = await bucket.copy(`${fx.alice.id}/copy/src.txt`, `${fx.alice.id}/copy/dst.txt`);
    expect(copied).toEqual({ data: { path: `${fx.privateBucket}/${fx.alice.id}/copy/dst.txt` }, error: null });
    await bucket.remove([`${fx.alice.id}/copy/src.txt`]);
    expect(await (await bucket.download(`${fx.alice.id}/copy/dst.txt`)).data?.text()).toBe("copy me");
    const again = await bucket.copy(`${fx.alice.id}/copy/dst.txt`, `${fx.alice.id}/copy/dst.txt`);
    expect(again.error).toMatchObject({ statusCode: "409" });
    const toPublic = await bucket.copy(`${fx.alice.id}/copy/dst.txt`, `${fx.alice.id}/copied.txt`, { destinationBucket: fx.publicBucket });
    expect(toPublic.error).toBeNull();
    expect(await (await fetch(`${apiUrl}/storage/v1/object/public/${fx.publicBucket}/${fx.alice.id}/copied.txt`)).text()).toBe("copy me");
  });

  test("remove deletes rows and bytes the caller may delete, and returns them", async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    await bucket.upload(`${fx.alice.id}/rm/one.txt`, text("1"));
    await bucket.upload(`${fx.alice.id}/rm/two.txt`, text("2"));
    const byBob = await fx.bob.client.storage.from(fx.privateBucket).remove([`${fx.alice.id}/rm/one.txt`]);
    expect(byBob).toEqual({ data: [], error: null });
    const removed = await bucket.remove([`${fx.alice.id}/rm/one.txt`, `${fx.alice.id}/rm/two.txt`, `${fx.alice.id}/rm/none.txt`]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((row) => row.name).sort()).toEqual([`${fx.alice.id}/rm/one.txt`, `${fx.alice.id}/rm/two.txt`]);
    expect(removed.data?.[0]).toMatchObject({ bucket_id: fx.privateBucket, owner_id: fx.alice.id, metadata: { size: 1 } });
    expect(filesOf(fx.privateBucket).some((file) => file.startsWith(`${fx.alice.id}/rm/`))).toBe(false);
  });
});

describe("signed URLs", () => {
  const path = () => `${fx.alice.id}/signed/doc.txt`;
  beforeAll(async () => {
    await fx.alice.client.storage.from(fx.privateBucket).upload(path(), text("signed content"));
  });

  test("a signed URL downloads without a key until it expires", async () => {
    const { data, error } = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrl(path(), 60);
    expect(error).toBeNull();
    const response = await fetch(data?.signedUrl ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("expires")).toMatch(/GMT$/);
    expect(await response.text()).toBe("signed content");
    const token = new URL(data?.signedUrl ?? "").searchParams.get("token") ?? "";
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
    expect(claims).toEqual({ url: `${fx.privateBucket}/${path()}`, iat: expect.any(Number), exp: claims.iat + 60 });

    const download = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrl(path(), 60, { download: "saved.txt" });
    expect((await fetch(download.data?.signedUrl ?? "")).headers.get("content-disposition")).toContain("filename=saved.txt");

    const now = Math.floor(Date.now() / 1000);
    const expired = signHs256({ url: `${fx.privateBucket}/${path()}`, iat: now - 120, exp: now - 60 });
    const late = await fetch(`${apiUrl}/storage/v1/object/sign/${fx.privateBucket}/${path()}?token=${expired}`);
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({
      statusCode: "400",
      code: "InvalidJWT",
      error: "InvalidJWT",
      message: '"exp" claim timestamp check failed',
    });
    const other = await fetch(`${apiUrl}/storage/v1/object/sign/${fx.privateBucket}/${fx.alice.id}/signed/other.txt?token=${token}`);
    expect(await other.json()).toEqual({
      statusCode: "400",
      code: "InvalidSignature",
      error: "InvalidSignature",
      message: "Invalid signature",
    });
  });

  test("signing needs read access; batches report what cannot be signed", async () => {
    const denied = await fx.bob.client.storage.from(fx.privateBucket).createSignedUrl(path(), 60);
    expect(denied.error).toMatchObject({ statusCode: "404", message: "Object not found" });
    const batch = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrls([path(), `${fx.alice.id}/signed/missing.txt`], 60);
    expect(batch.error).toBeNull();
    expect(batch.data?.[1]).toEqual({
      error: "Either the object does not exist or you do not have access to it",
      path: `${fx.alice.id}/signed/missing.txt`,
      signedURL: null,
      signedUrl: null,
    });
    expect(await (await fetch(batch.data?.[0].signedUrl ?? "")).text()).toBe("signed content");
    const invalid = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrl(path(), 0);
    expect(invalid.error).toMatchObject({ status: 400, statusCode: "400" });
  });

  test("signed upload URLs let anyone holding the token upload once, as the signer", async () => {
    const target = `${fx.alice.id}/signed/upload.txt`;
    const signed = await fx.alice.client.storage.from(fx.privateBucket).createSignedUploadUrl(target);
    expect(signed.error).toBeNull();
    expect(signed.data?.path).toBe(target);
    const uploaded = await anonClient()
      .storage.from(fx.privateBucket)
      .uploadToSignedUrl(target, signed.data?.token ?? "", text("via token"));
    expect(uploaded).toEqual({ data: { path: target, fullPath: `${fx.privateBucket}/${target}` }, error: null });
    const [row] = await adminQuery<{ owner_id: string }>("select owner_id from storage.objects where bucket_id = $1 and name = $2", [
      fx.privateBucket,
      target,
    ]);
    expect(row.owner_id).toBe(fx.alice.id);
    const twice = await anonClient()
      .storage.from(fx.privateBucket)
      .uploadToSignedUrl(target, signed.data?.token ?? "", text("again"));
    expect(twice.error).toMatchObject({ statusCode: "409" });

    const forBob = await fx.bob.client.storage.from(fx.privateBucket).createSignedUploadUrl(`${fx.alice.id}/signed/bob.txt`);
    expect(forBob.error).toMatchObject({ statusCode: "403", message: "new row violates row-level security policy" });
  });
});

describe("anon and the service role on every object operation", () => {
  const own = () => `${fx.alice.id}/roles/file.txt`;
  beforeAll(async () => {
    await fx.alice.client.storage.from(fx.publicBucket).upload(own(), text("in public"));
    await fx.alice.client.storage.from(fx.privateBucket).upload(own(), text("in private"));
  });

  test("anon reads what the public bucket's policy shows, and nothing else", async () => {
    const anon = anonClient().storage;
    expect((await anon.from(fx.publicBucket).info(own())).data).toMatchObject({ name: own(), size: 9 });
    expect((await anon.from(fx.publicBucket).list(`${fx.alice.id}/roles`)).data?.map((item) => item.name)).toEqual(["file.txt"]);
    const signed = await anon.from(fx.publicBucket).createSignedUrl(own(), 30);
    expect(await (await fetch(signed.data?.signedUrl ?? "")).text()).toBe("in public");
    expect((await anon.from(fx.privateBucket).info(own())).error).toMatchObject({ statusCode: "404" });
    expect((await anon.from(fx.privateBucket).list(`${fx.alice.id}/roles`)).data).toEqual([]);
    expect((await anon.from(fx.privateBucket).createSignedUrl(own(), 30)).error).toMatchObject({ statusCode: "404" });
  });

  test("anon changes nothing: move, copy, remove and signed uploads are refused", async () => {
    const anon = anonClient().storage;
    expect((await anon.from(fx.publicBucket).move(own(), `${fx.alice.id}/roles/moved.txt`)).error).toMatchObject({ statusCode: "404" });
    expect((await anon.from(fx.publicBucket).copy(own(), `${fx.alice.id}/roles/copied.txt`)).error).toMatchObject({ statusCode: "403" });
    expect(await anon.from(fx.publicBucket).remove([own()])).toEqual({ data: [], error: null });
    expect((await anon.from(fx.publicBucket).createSignedUploadUrl(`${fx.alice.id}/roles/anon.txt`)).error).toMatchObject({
      statusCode: "403",
    });
    expect(await (await fx.alice.client.storage.from(fx.publicBucket).download(own())).data?.text()).toBe("in public");
  });

  test("the service role does everything, in any folder", async () => {
    const service = fx.service.storage.from(fx.privateBucket);
    expect((await service.info(own())).data).toMatchObject({ size: 10 });
    expect((await service.list(`${fx.alice.id}/roles`)).data?.map((item) => item.name)).toEqual(["file.txt"]);
    expect((await service.copy(own(), `${fx.bob.id}/roles/from-alice.txt`)).error).toBeNull();
    expect((await service.move(`${fx.bob.id}/roles/from-alice.txt`, `${fx.bob.id}/roles/moved.txt`)).error).toBeNull();
    expect(await (await fx.bob.client.storage.from(fx.privateBucket).download(`${fx.bob.id}/roles/moved.txt`)).data?.text()).toBe(
      "in private",
    );
    const signedUpload = await service.createSignedUploadUrl(`${fx.bob.id}/roles/signed.txt`);
    expect(
      (
        await anonClient()
          .storage.from(fx.privateBucket)
          .uploadToSignedUrl(`${fx.bob.id}/roles/signed.txt`, signedUpload.data?.token ?? "", text("s"))
      ).error,
    ).toBeNull();
    const removed = await service.remove([`${fx.bob.id}/roles/moved.txt`, `${fx.bob.id}/roles/signed.txt`]);
    expect(removed.data?.map((row) => row.name).sort()).toEqual([`${fx.bob.id}/roles/moved.txt`, `${fx.bob.id}/roles/signed.txt`]);
  });
});

describe("policies that read the upload's metadata", () => {
  const bucket = "fx-st-main-typed";
  beforeAll(async () => {
    await adminQuery("insert into storage.buckets (id, name, public) values ($1, $1, false)", [bucket]);
    await adminQuery(`create policy fx_st_main_typed_insert on storage.objects for insert to authenticated
      with check (bucket_id = '${bucket}' and metadata ->> 'mimetype' = 'text/csv' and (metadata ->> 'contentLength')::int <= 16)`);
  });
  afterAll(async () => {
    await fx.service.storage.emptyBucket(bucket);
    await fx.service.storage.deleteBucket(bucket);
    await adminQuery("drop policy if exists fx_st_main_typed_insert on storage.objects");
    await adminQuery("delete from storage.objects where bucket_id = $1", [bucket]);
    await adminQuery("delete from storage.buckets where id = $1", [bucket]);
  });

  test("the trial row carries the mime type and declared length, as storage-api's does", async () => {
    const storage = fx.alice.client.storage.from(bucket);
    expect((await storage.upload("ok.csv", Buffer.from("a,b\n1,2"), { contentType: "text/csv" })).error).toBeNull();
    expect((await storage.upload("no.txt", Buffer.from("a,b"), { contentType: "text/plain" })).error).toMatchObject({ statusCode: "403" });
    expect((await storage.upload("big.csv", Buffer.alloc(17, 44), { contentType: "text/csv" })).error).toMatchObject({ statusCode: "403" });
    expect(await adminQuery("select name from storage.objects where bucket_id = $1", [bucket])).toEqual([{ name: "ok.csv" }]);
  });
});

describe("bucket API", () => {
  const id = "fx-st-main-api";
  afterAll(async () => {
    await adminQuery("delete from storage.objects where bucket_id = $1", [id]);
    await adminQuery("delete from storage.buckets where id = $1", [id]);
  });

  test("the service role creates, reads, updates, empties and deletes a bucket", async () => {
    const storage = fx.service.storage;
    expect(await storage.createBucket(id, { public: false, fileSizeLimit: "1MB", allowedMimeTypes: ["text/plain"] })).toEqual({
      data: { name: id },
      error: null,
    });
    const got = await storage.getBucket(id);
    // storage-api's GET /bucket/{id} names these columns and not `type` (GET /bucket lists it).
    expect(Object.keys(got.data ?? {}).sort()).toEqual([
      "allowed_mime_types",
      "created_at",
      "file_size_limit",
      "id",
      "name",
      "owner",
      "public",
      "updated_at",
    ]);
    expect(got.data).toMatchObject({ id, name: id, public: false, file_size_limit: 1_000_000, allowed_mime_types: ["text/plain"] });
    const listed = (await storage.listBuckets()).data?.find((bucket) => bucket.id === id);
    expect(listed).toMatchObject({ id, type: "STANDARD" });
    expect((await storage.createBucket(id)).error).toMatchObject({
      status: 400,
      statusCode: "409",
      message: "The resource already exists",
    });
    expect((await storage.updateBucket(id, { public: true, fileSizeLimit: 10 })).data).toEqual({ message: "Successfully updated" });
    expect((await storage.getBucket(id)).data).toMatchObject({ public: true, file_size_limit: 10, allowed_mime_types: ["text/plain"] });
    await storage.from(id).upload("a.txt", text("0123456789"));
    expect((await storage.deleteBucket(id)).error).toMatchObject({
      statusCode: "409",
      message: "The bucket you tried to delete is not empty",
    });
    expect((await storage.emptyBucket(id)).data).toEqual({ message: "Empty bucket has been queued. Completion may take up to an hour." });
    expect(filesOf(id)).toEqual([]);
    expect((await storage.deleteBucket(id)).data).toEqual({ message: "Successfully deleted" });
    expect((await storage.getBucket(id)).error).toMatchObject({ statusCode: "404", message: "Bucket not found" });
  });

  test("anon and users may not manage buckets; bad settings are refused", async () => {
    for (const client of [anonClient(), fx.alice.client]) {
      expect((await client.storage.createBucket("fx-st-main-nope")).error).toMatchObject({
        status: 400,
        statusCode: "403",
        message: "new row violates row-level security policy",
      });
    }
    expect((await fx.alice.client.storage.getBucket("avatars")).error).toMatchObject({ statusCode: "404" });
    expect((await fx.service.storage.createBucket("fx-st-main-huge", { public: false, fileSizeLimit: "100GB" })).error).toMatchObject({
      statusCode: "413",
      message: "The object exceeded the maximum allowed size",
    });
    expect((await fx.service.storage.createBucket("fx st/bad")).error).toMatchObject({ statusCode: "400", message: "Bucket name invalid" });
    expect((await fx.service.storage.deleteBucket("fx-st-main-none")).error).toMatchObject({
      statusCode: "404",
      message: "Bucket not found",
    });
  });
});

describe("authentication", () => {
  test("an invalid JWT is refused on writes and treated as anon on reads", async () => {
    const forged = userJwt(fx.alice.id, fx.alice.email).slice(0, -4) + "AAAA";
    const upload = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${fx.alice.id}/x.txt`, {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${forged}`, "Content-Type": "text/plain" },
      body: "x",
    });
    expect(upload.status).toBe(400);
    expect(await upload.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "signature verification failed",
    });
    await fx.alice.client.storage.from(fx.publicBucket).upload(`${fx.alice.id}/open.txt`, text("open"));
    const read = await fetch(`${apiUrl}/storage/v1/object/${fx.publicBucket}/${fx.alice.id}/open.txt`, {
      headers: { Authorization: `Bearer ${forged}` },
    });
    expect(await read.text()).toBe("open");
  });

  test("the opaque secret key alone acts as the service role", async () => {
    const response = await fetch(`${apiUrl}/storage/v1/bucket/${fx.privateBucket}`, { headers: { apikey: secretKey } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: fx.privateBucket, public: false });
  });
});
