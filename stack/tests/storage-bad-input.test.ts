// Storage refuses bad input in Storage's own error shape and leaves nothing behind: oversized and
// wrong-type uploads, path traversal in object and bucket names, malformed bodies, and uploads
// the client abandons half-way.
import http from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stateDir } from "../lib/paths.ts";
import { anonKey, apiUrl, config } from "./helpers/stack.ts";
import { adminQuery, filesOf, pendingUploads, type StorageFixture, setupStorageFixture } from "./storage-fixtures.ts";

let fx: StorageFixture;
const limit = 64 * 1024;

beforeAll(async () => {
  fx = await setupStorageFixture("bad", { fileSizeLimit: limit, allowedMimeTypes: ["text/plain", "audio/*"] });
});

afterAll(async () => {
  await fx?.teardown();
});

const tooLarge = {
  statusCode: "413",
  code: "EntityTooLarge",
  error: "Payload too large",
  message: "The object exceeded the maximum allowed size",
};

async function rowsNamed(name: string) {
  return adminQuery("select name from storage.objects where name = $1", [name]);
}

/** A raw request, for what fetch would normalise or finish on its own. */
function rawRequest(options: {
  method: string;
  path: string;
  headers: Record<string, string | number>;
  body?: Buffer;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: config.apiPort, method: options.method, path: options.path, headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Polls `check` every 50 ms; 60 s is a ceiling for a busy machine, not an expectation. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("oversized uploads", () => {
  test("a raw body over the bucket's limit is refused with Storage's 413 shape, nothing stored", async () => {
    const name = `${fx.alice.id}/big.txt`;
    const { error } = await fx.alice.client.storage
      .from(fx.privateBucket)
      .upload(name, Buffer.alloc(limit + 1, 97), { contentType: "text/plain" });
    expect(error).toMatchObject({ status: 400, statusCode: "413", message: tooLarge.message });
    const response = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${name}`, {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}`, "Content-Type": "text/plain" },
      body: Buffer.alloc(limit + 1, 97),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(tooLarge);
    expect(await rowsNamed(name)).toEqual([]);
    expect(filesOf(fx.privateBucket)).toEqual([]);
  });

  test("a multipart file and a streamed body without Content-Length are cut off at the limit", async () => {
    const name = `${fx.alice.id}/big-form.txt`;
    const form = await fx.alice.client.storage
      .from(fx.privateBucket)
      .upload(name, new Blob([Buffer.alloc(limit + 1, 98)], { type: "text/plain" }));
    expect(form.error).toMatchObject({ status: 400, statusCode: "413" });
    const exact = await fx.alice.client.storage
      .from(fx.privateBucket)
      .upload(name, new Blob([Buffer.alloc(limit, 98)], { type: "text/plain" }));
    expect(exact.error).toBeNull();

    const chunk = Buffer.alloc(16 * 1024, 99);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= limit * 4) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${fx.alice.id}/streamed.txt`, {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}`, "Content-Type": "text/plain" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(tooLarge);
    expect(await rowsNamed(`${fx.alice.id}/streamed.txt`)).toEqual([]);
    expect(filesOf(fx.privateBucket).map((file) => file.replace(/\.[0-9a-f-]{36}$/, ""))).toEqual([name]);
  });

  test("the global [storage] file_size_limit caps buckets without a limit of their own", async () => {
    const bucket = "fx-st-bad-unlimited";
    await adminQuery("insert into storage.buckets (id, name, public) values ($1, $1, false)", [bucket]);
    try {
      const global = 50 * 1024 * 1024; // config.toml: file_size_limit = "50MiB"
      const { error } = await fx.service.storage
        .from(bucket)
        .upload("huge.bin", Buffer.alloc(global + 1), { contentType: "application/octet-stream" });
      expect(error).toMatchObject({ statusCode: "413" });
      expect(filesOf(bucket)).toEqual([]);
    } finally {
      await adminQuery("delete from storage.buckets where id = $1", [bucket]);
    }
  });
});

describe("wrong types", () => {
  test("a type the bucket does not allow is refused before any byte is stored", async () => {
    const name = `${fx.alice.id}/page.html`;
    const raw = await fetch(`${apiUrl}/storage/v1/object/${fx.privateBucket}/${name}`, {
      method: "POST",
      headers: { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}`, "Content-Type": "text/html" },
      body: "<h1>hi</h1>",
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: "415",
      code: "InvalidMimeType",
      error: "invalid_mime_type",
      message: "mime type text/html is not supported",
    });
    const form = await fx.alice.client.storage.from(fx.privateBucket).upload(name, new Blob(["%PDF"], { type: "application/pdf" }));
    expect(form.error).toMatchObject({ statusCode: "415", message: "mime type application/pdf is not supported" });
    const noType = await fx.alice.client.storage.from(fx.privateBucket).upload(name, Buffer.from("x"), { contentType: "nonsense" });
    expect(noType.error).toMatchObject({ statusCode: "415", message: "mime type nonsense is not supported" });
    expect(await rowsNamed(name)).toEqual([]);
    // A wildcard entry allows the whole family.
    const audio = await fx.alice.client.storage
      .from(fx.privateBucket)
      .upload(`${fx.alice.id}/song.mp3`, new Blob(["ID3"], { type: "audio/mpeg" }));
    expect(audio.error).toBeNull();
    await fx.alice.client.storage.from(fx.privateBucket).remove([`${fx.alice.id}/song.mp3`]);
  });
});

describe("path traversal", () => {
  const headers = () => ({ apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}`, "Content-Type": "text/plain" });
  const before = () => readdirSync(path.join(stateDir, "storage")).sort();

  test("dot segments in the URL are refused, not resolved", async () => {
    const top = before();
    for (const evil of [`${fx.alice.id}/../../../escape.txt`, `${fx.alice.id}/%2e%2e/%2E%2E/escape.txt`, `${fx.alice.id}/./x.txt`]) {
      const response = await rawRequest({
        method: "POST",
        path: `/storage/v1/object/${fx.privateBucket}/${evil}`,
        headers: { ...headers(), "Content-Length": 4 },
        body: Buffer.from("evil"),
      });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ statusCode: "400", code: "InvalidKey", error: "InvalidKey" });
    }
    const read = await rawRequest({
      method: "GET",
      path: `/storage/v1/object/public/${fx.publicBucket}/../${fx.privateBucket}/x`,
      headers: {},
    });
    expect(JSON.parse(read.body)).toMatchObject({ statusCode: "400", code: "InvalidKey" });
    expect(before()).toEqual(top);
    expect(await adminQuery("select name from storage.objects where name like '%escape%'")).toEqual([]);
  });

  test("traversal in move and copy keys, and in bucket names, is refused", async () => {
    const bucket = fx.alice.client.storage.from(fx.privateBucket);
    await bucket.upload(`${fx.alice.id}/safe.txt`, new Blob(["safe"], { type: "text/plain" }));
    for (const destination of ["../../../../etc/passwd", `${fx.alice.id}/../x.txt`, `${fx.alice.id}//x.txt`]) {
      const moved = await bucket.move(`${fx.alice.id}/safe.txt`, destination);
      expect(moved.error).toMatchObject({ status: 400, statusCode: "400", message: `Invalid key: ${destination}` });
      const copied = await bucket.copy(`${fx.alice.id}/safe.txt`, destination);
      expect(copied.error).toMatchObject({ status: 400, statusCode: "400", message: `Invalid key: ${destination}` });
    }
    const crossBucket = await bucket.move(`${fx.alice.id}/safe.txt`, `${fx.alice.id}/x.txt`, { destinationBucket: ".." });
    expect(crossBucket.error).toMatchObject({ statusCode: "400", message: "Bucket name invalid" });
    expect((await fx.service.storage.createBucket("..", { public: false })).error).toMatchObject({
      statusCode: "400",
      message: "Bucket name invalid",
    });
    expect(await (await bucket.download(`${fx.alice.id}/safe.txt`)).data?.text()).toBe("safe");
    const names = await bucket.upload(`${fx.alice.id}/naïve.txt`, new Blob(["x"], { type: "text/plain" }));
    expect(names.error).toMatchObject({ statusCode: "400", message: `Invalid key: ${fx.alice.id}/naïve.txt` });
  });
});

describe("malformed requests", () => {
  test("broken multipart forms, bad JSON and unknown routes get clear errors", async () => {
    const headers = { apikey: anonKey, Authorization: `Bearer ${fx.alice.jwt}` };
    const url = `${apiUrl}/storage/v1/object/${fx.privateBucket}/${fx.alice.id}/form.txt`;
    const noFile = await fetch(url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n60\r\n--XYZ--\r\n',
    });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ statusCode: "400", message: "No content provided" });
    const truncated = await fetch(url, {
      method: "POST",
      headers: { ...headers, "Content-Type": "multipart/form-data; boundary=XYZ" },
      body: '--XYZ\r\nContent-Disposition: form-data; name=""; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf a file',
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toMatchObject({ statusCode: "400", message: "unexpected end of form" });
    expect(await rowsNamed(`${fx.alice.id}/form.txt`)).toEqual([]);

    const badJson = await fetch(`${apiUrl}/storage/v1/object/list/${fx.privateBucket}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{prefix:",
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ statusCode: "400", error: "Bad Request" });
    const missing = await fetch(`${apiUrl}/storage/v1/object/list/${fx.privateBucket}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(await missing.json()).toMatchObject({ statusCode: "400", message: "body must have required property 'prefix'" });
    const unknown = await fetch(`${apiUrl}/storage/v1/nowhere`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: "404", message: "Route GET:/storage/v1/nowhere not found" });
  });
});

describe("aborted uploads", { timeout: 150_000 }, () => {
  for (const kind of ["raw", "multipart"] as const) {
    test(`a ${kind} upload abandoned half-way leaves no row and no file`, async () => {
      const name = `${fx.alice.id}/abandoned-${kind}.txt`;
      const size = limit - 1024;
      const boundary = "fxstboundary";
      const head =
        kind === "multipart"
          ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=""; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`)
          : Buffer.alloc(0);
      const request = http.request({
        host: "127.0.0.1",
        port: config.apiPort,
        method: "POST",
        path: `/storage/v1/object/${fx.privateBucket}/${name}`,
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${fx.alice.jwt}`,
          "Content-Type": kind === "multipart" ? `multipart/form-data; boundary=${boundary}` : "text/plain",
          "Content-Length": head.length + size + (kind === "multipart" ? boundary.length + 8 : 0),
        },
      });
      const failed = new Promise<void>((resolve) => {
        request.on("error", () => resolve());
        request.on("close", () => resolve());
      });
      request.write(Buffer.concat([head, Buffer.alloc(size / 2, 100)]));
      // Half the bytes are on the server (in a temporary file) when the client goes away.
      await until(() => pendingUploads().length > 0, "the upload to start");
      request.destroy();
      await failed;
      await until(() => pendingUploads().length === 0, "the temporary file to be removed");
      expect(await rowsNamed(name)).toEqual([]);
      expect(filesOf(fx.privateBucket).some((file) => file.includes(`abandoned-${kind}`))).toBe(false);
      // The service is still fine afterwards.
      const after = await fx.alice.client.storage.from(fx.privateBucket).upload(name, new Blob(["whole"], { type: "text/plain" }));
      expect(after.error).toBeNull();
    });
  }
});
