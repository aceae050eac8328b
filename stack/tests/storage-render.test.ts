// Image transformations as Supabase Storage serves them (/render/image/{public,authenticated,sign}/…),
// driven by the real supabase-js against fixture buckets of this suite's own: sizes and resize modes,
// the output format by `format` and by the Accept header, quality bounds, what is refused (non-images,
// missing objects, private buckets without a token) and signed transform URLs. The pictures are made
// here with sharp and read back with it.
import type { SupabaseClient } from "@supabase/supabase-js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { anonKey, apiUrl } from "./helpers/stack.ts";
import { type StorageFixture, setupStorageFixture } from "./storage-fixtures.ts";

let fx: StorageFixture;
let photo: string; // 400×200 JPEG in the public bucket
let logo: string; // 300×300 PNG with transparency in the public bucket
let secret: string; // 400×200 JPEG in the private bucket (only alice's folder policy reads it)
let notes: string; // a text file in the public bucket

beforeAll(async () => {
  fx = await setupStorageFixture("render");
  // Noise, so that quality makes a difference to the size.
  const jpeg = await sharp({
    create: { width: 400, height: 200, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
  const png = await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
    .png()
    .toBuffer();
  photo = `${fx.alice.id}/photo.jpg`;
  logo = `${fx.alice.id}/logo.png`;
  secret = `${fx.alice.id}/secret.jpg`;
  notes = `${fx.alice.id}/notes.txt`;
  const uploads = [
    fx.alice.client.storage.from(fx.publicBucket).upload(photo, jpeg, { contentType: "image/jpeg" }),
    fx.alice.client.storage.from(fx.publicBucket).upload(logo, png, { contentType: "image/png" }),
    fx.alice.client.storage.from(fx.privateBucket).upload(secret, jpeg, { contentType: "image/jpeg" }),
    fx.alice.client.storage.from(fx.publicBucket).upload(notes, new Blob(["not a picture"], { type: "text/plain" })),
  ];
  for (const { error } of await Promise.all(uploads)) if (error) throw error;
});

afterAll(async () => {
  await fx?.teardown();
});

async function image(response: Response) {
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const { width, height, format } = await sharp(bytes).metadata();
  return { width, height, format, bytes, type: response.headers.get("content-type") };
}

type TransformOptions = NonNullable<NonNullable<Parameters<ReturnType<SupabaseClient["storage"]["from"]>["getPublicUrl"]>[1]>["transform"]>;
/** storage-js types `format` as "origin" only; Storage takes "webp" and "avif" too, and storage-js passes them on. */
type Transform = Omit<TransformOptions, "format"> & { format?: "origin" | "webp" | "avif" };
const asTransform = (transform: Transform) => transform as TransformOptions;

const publicUrl = (path: string, options: { transform: Transform }) =>
  fx.alice.client.storage.from(fx.publicBucket).getPublicUrl(path, { transform: asTransform(options.transform) }).data.publicUrl;

describe("sizes and resize modes", () => {
  test("getPublicUrl with a transform: a /render/image/public/ URL; cover (the default) fills the box and crops", async () => {
    const url = publicUrl(photo, { transform: { width: 100, height: 100 } });
    expect(url).toBe(`${apiUrl}/storage/v1/render/image/public/${fx.publicBucket}/${photo}?width=100&height=100`);
    const response = await fetch(url);
    expect(response.headers.get("x-transformations")).toBe("height:100,width:100,resizing_type:fill");
    expect(await image(response)).toMatchObject({ width: 100, height: 100, format: "jpeg", type: "image/jpeg" });
  });

  test("contain fits inside the box, fill stretches to it, one side keeps the aspect ratio", async () => {
    expect(await image(await fetch(publicUrl(photo, { transform: { width: 100, height: 100, resize: "contain" } })))).toMatchObject({
      width: 100,
      height: 50,
    });
    expect(await image(await fetch(publicUrl(photo, { transform: { width: 100, height: 100, resize: "fill" } })))).toMatchObject({
      width: 100,
      height: 100,
    });
    expect(await image(await fetch(publicUrl(photo, { transform: { width: 100 } })))).toMatchObject({ width: 100, height: 50 });
    expect(await image(await fetch(publicUrl(photo, { transform: { height: 50 } })))).toMatchObject({ width: 100, height: 50 });
  });

  test("never enlarged; sizes past the 2,000 px limit are clamped, not refused", async () => {
    expect(await image(await fetch(publicUrl(logo, { transform: { width: 600, height: 600 } })))).toMatchObject({
      width: 300,
      height: 300,
    });
    const response = await fetch(publicUrl(photo, { transform: { width: 5000 } }));
    expect(response.headers.get("x-transformations")).toBe("width:2000,resizing_type:fill");
    expect(await image(response)).toMatchObject({ width: 400, height: 200 });
  });

  test("download() with a transform reads through /render/image/authenticated/ as the caller", async () => {
    const { data, error } = await fx.alice.client.storage.from(fx.privateBucket).download(secret, { transform: { width: 40, height: 40 } });
    expect(error).toBeNull();
    const meta = await sharp(Buffer.from(await data!.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 40, height: 40 });
    // Bob's token sees no such object (RLS), as for a plain download.
    const refused = await fx.bob.client.storage.from(fx.privateBucket).download(secret, { transform: { width: 40 } });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ status: 400 });
  });
});

describe("formats and quality", () => {
  test("format webp and avif; origin keeps the source's format whatever the browser accepts", async () => {
    expect(await image(await fetch(publicUrl(photo, { transform: { width: 50, format: "webp" } })))).toMatchObject({
      format: "webp",
      type: "image/webp",
      width: 50,
    });
    const avif = await image(await fetch(publicUrl(logo, { transform: { width: 50, format: "avif" } })));
    expect(avif).toMatchObject({ format: "heif", type: "image/avif", width: 50 });
    const origin = await fetch(publicUrl(logo, { transform: { width: 50, format: "origin" } }), { headers: { Accept: "image/webp,*/*" } });
    expect(await image(origin)).toMatchObject({ format: "png", type: "image/png" });
  });

  test("without a format, a client that accepts WebP gets WebP, others the source's format", async () => {
    const url = publicUrl(photo, { transform: { width: 80 } });
    const browser = await fetch(url, { headers: { Accept: "image/avif,image/webp,image/apng,*/*;q=0.8" } });
    expect(await image(browser)).toMatchObject({ format: "webp", width: 80 });
    expect(await image(await fetch(url, { headers: { Accept: "*/*" } }))).toMatchObject({ format: "jpeg", width: 80 });
  });

  test("quality 20–100: a lower quality is a smaller file; outside the range is refused as storage-api's schema refuses it", async () => {
    const low = await image(await fetch(publicUrl(photo, { transform: { width: 300, format: "webp", quality: 20 } })));
    const high = await image(await fetch(publicUrl(photo, { transform: { width: 300, format: "webp", quality: 100 } })));
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
    for (const [quality, message] of [
      [10, "querystring/quality must be >= 20"],
      [101, "querystring/quality must be <= 100"],
    ] as const) {
      const response = await fetch(publicUrl(photo, { transform: { width: 30, quality } }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ statusCode: "400", code: "InvalidRequest", error: "Bad Request", message });
    }
  });

  test("bad sizes, modes and formats are schema errors", async () => {
    const base = `${apiUrl}/storage/v1/render/image/public/${fx.publicBucket}/${photo}`;
    for (const [query, message] of [
      ["width=abc", "querystring/width must be integer"],
      ["height=-1", "querystring/height must be >= 0"],
      ["width=10&resize=stretch", "querystring/resize must be equal to one of the allowed values"],
      ["format=gif", "querystring/format must be equal to one of the allowed values"],
    ]) {
      const response = await fetch(`${base}?${query}`);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    }
  });
});

describe("what is refused", () => {
  test("a file that is not an image: 400, the source is invalid or unsupported", async () => {
    const response = await fetch(publicUrl(notes, { transform: { width: 10 } }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: "400",
      code: "InvalidRequest",
      error: "InvalidRequest",
      message: "The source image is invalid or unsupported for rendering",
    });
  });

  test("a source over 50 megapixels is refused", async () => {
    const path = `${fx.alice.id}/huge.png`;
    const huge = await sharp({ create: { width: 8000, height: 7000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    expect((await fx.alice.client.storage.from(fx.publicBucket).upload(path, huge, { contentType: "image/png" })).error).toBeNull();
    const response = await fetch(publicUrl(path, { transform: { width: 10 } }));
    expect(await response.json()).toMatchObject({ statusCode: "400", message: "The source image resolution is too large to process" });
  });

  test("a missing object is NoSuchKey; a private bucket has no public render route", async () => {
    const missing = await fetch(publicUrl(`${fx.alice.id}/nothing.png`, { transform: { width: 10 } }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
    const privateUrl = fx.alice.client.storage.from(fx.privateBucket).getPublicUrl(secret, { transform: { width: 10 } }).data.publicUrl;
    const refused = await fetch(privateUrl);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ statusCode: "404", code: "NoSuchBucket", message: "Bucket not found" });
    // Nor does the anon key read it through the authenticated route.
    const anon = await fetch(`${apiUrl}/storage/v1/render/image/authenticated/${fx.privateBucket}/${secret}?width=10`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
    });
    expect(await anon.json()).toMatchObject({ statusCode: "404" });
  });
});

describe("signed transform URLs and cache headers", () => {
  test("createSignedUrl with a transform signs it into the token: a /render/image/sign/ URL the query cannot change", async () => {
    const { data, error } = await fx.alice.client.storage
      .from(fx.privateBucket)
      .createSignedUrl(secret, 60, { transform: asTransform({ width: 64, height: 64, format: "webp" }) });
    expect(error).toBeNull();
    const url = new URL(data!.signedUrl);
    expect(url.pathname).toBe(`/storage/v1/render/image/sign/${fx.privateBucket}/${secret}`);
    const claims = JSON.parse(Buffer.from(url.searchParams.get("token")!.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ url: `${fx.privateBucket}/${secret}`, transformations: "height:64,width:64,resize:cover,format:webp" });
    const response = await fetch(url);
    expect(response.headers.get("expires")).toBe(new Date(claims.exp * 1000).toUTCString());
    expect(await image(response)).toMatchObject({ width: 64, height: 64, format: "webp" });
    url.searchParams.set("width", "10");
    expect(await image(await fetch(url))).toMatchObject({ width: 64 });
    // The token is for this object only, and a forged one is refused.
    const other = await fetch(`${apiUrl}/storage/v1/render/image/sign/${fx.privateBucket}/${fx.alice.id}/other.jpg${url.search}`);
    expect(await other.json()).toMatchObject({ statusCode: "400", code: "InvalidSignature" });
    const forged = await fetch(`${apiUrl}/storage/v1/render/image/sign/${fx.privateBucket}/${secret}?token=x.y.z`);
    expect(await forged.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT" });
  });

  test("a signed URL without a transform stays an /object/sign/ URL; a bad transform is a schema error", async () => {
    const plain = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrl(secret, 60);
    expect(new URL(plain.data!.signedUrl).pathname).toBe(`/storage/v1/object/sign/${fx.privateBucket}/${secret}`);
    const bad = await fx.alice.client.storage.from(fx.privateBucket).createSignedUrl(secret, 60, { transform: { quality: 5 } });
    expect(bad.error).toMatchObject({ status: 400, message: "body/transform/quality must be >= 20" });
  });

  test("the object's Cache-Control and ETag; If-None-Match answers 304; HEAD has the headers only", async () => {
    const url = publicUrl(photo, { transform: { width: 20 } });
    const first = await fetch(url);
    expect(first.headers.get("cache-control")).toBe("max-age=3600");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    await first.arrayBuffer();
    expect((await fetch(url, { headers: { "If-None-Match": etag! } })).status).toBe(304);
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect(head.headers.get("content-type")).toBe("image/jpeg");
  });
});
