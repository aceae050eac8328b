// Avatars asked for at the size they are drawn: the URLs lib/avatars.ts builds (lib/storage/image-url.ts)
// answered by the local backend's image transformations, from the real `avatars` bucket and its policies.
import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { avatarImage } from "../../lib/avatars.ts";
import { avatarObjectPath } from "../../lib/storage/buckets.ts";
import { adminQuery, apiUrl, clientWithJwt, insertAuthUsers, serviceClient, userJwt } from "../helpers/stack.ts";

const id = randomUUID();
const email = `fx-st-sizes-${id.slice(0, 8)}@example.test`;
const alice = { id, email, jwt: userJwt(id, email), client: clientWithJwt(userJwt(id, email)) };
const config = { supabaseUrl: apiUrl, transforms: true };

/** A width×height RGB PNG with a gradient, so resizing has something to do. */
function gradientPng(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set([x % 256, y % 256, (x + y) % 256], y * (width * 3 + 1) + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });
const original = gradientPng(512, 384);
let path: string;

beforeAll(async () => {
  await insertAuthUsers([alice]);
  path = avatarObjectPath(alice.id, "image/png", Date.now());
  const { error } = await alice.client.storage.from("avatars").upload(path, original, { contentType: "image/png" });
  if (error) throw error;
});

afterAll(async () => {
  await serviceClient().storage.from("avatars").remove([path]);
  await adminQuery("delete from auth.users where id = $1", [alice.id]);
});

describe("avatar copies at the drawn size", () => {
  test("each srcset entry answers a square of its density's size, cropped from the 512×384 upload", async () => {
    const image = avatarImage(path, 24, config)!;
    const entries = image.srcSet!.split(", ").map((entry) => entry.split(" "));
    expect(entries.map(([, density]) => density)).toEqual(["1x", "2x", "3x"]);
    for (const [url, density] of entries) {
      const response = await fetch(url, { headers: { Accept: "image/png,*/*" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      const side = 24 * Number.parseInt(density, 10);
      expect(pngSize(Buffer.from(await response.arrayBuffer()))).toEqual({ width: side, height: side });
    }
    expect(image.src).toBe(entries[0][0]);
  });

  test("a browser that takes WebP gets a WebP copy, a small part of the original's bytes", async () => {
    const image = avatarImage(path, 28, config)!;
    const response = await fetch(image.src, { headers: { Accept: "image/avif,image/webp,*/*" } });
    expect(response.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe("RIFF");
    expect(bytes.length * 20).toBeLessThan(original.length);
  });

  test("switched off, the helper's URL is the original file", async () => {
    const image = avatarImage(path, 24, { ...config, transforms: false })!;
    expect(image.srcSet).toBeUndefined();
    const bytes = Buffer.from(await (await fetch(image.src)).arrayBuffer());
    expect(bytes.equals(original)).toBe(true);
  });
});
