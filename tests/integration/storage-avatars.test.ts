// The app's avatar flow against the real `avatars` bucket (config.toml) and the project's own
// storage policies (supabase/migrations/*avatar_storage_policies.sql): the browser uploads with
// XMLHttpRequest exactly as components/account/avatar-uploader.tsx does, the picture is shown
// through its public URL (lib/avatars.ts), and the server action removes the replaced one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { avatarObjectPath } from "../../lib/storage/buckets.ts";
import {
  adminQuery,
  insertAuthUsers,
  anonClient,
  apiUrl,
  clientWithJwt,
  publishableKey,
  serviceClient,
  userJwt,
} from "../helpers/stack.ts";

const users = [0, 1].map((index) => {
  const id = randomUUID();
  const email = `fx-st-avatars-${index}-${id.slice(0, 8)}@example.test`;
  const jwt = userJwt(id, email);
  return { id, email, jwt, client: clientWithJwt(jwt) };
});
const [alice, bob] = users;

// A 1×1 PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** What avatar-uploader.tsx sends: POST, the session's token, the publishable key, the file's type, no upsert. */
function uploadLikeTheApp(user: { jwt: string }, path: string, body: Buffer, type: string) {
  return fetch(`${apiUrl}/storage/v1/object/avatars/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${user.jwt}`, apikey: publishableKey, "Content-Type": type, "x-upsert": "false" },
    body: new Uint8Array(body),
  });
}

/** lib/avatars.ts' avatarUrl. */
function avatarUrl(path: string): string {
  return `${apiUrl}/storage/v1/object/public/avatars/${path.split("/").map(encodeURIComponent).join("/")}`;
}

beforeAll(async () => {
  await insertAuthUsers(users);
});

afterAll(async () => {
  const service = serviceClient();
  for (const user of users) {
    const { data } = await service.storage.from("avatars").list(user.id);
    if (data?.length) await service.storage.from("avatars").remove(data.map((item) => `${user.id}/${item.name}`));
  }
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [users.map((user) => user.id)]);
});

describe("avatar upload as the app does it", () => {
  test("the browser's CORS preflight for the upload is answered", async () => {
    const response = await fetch(`${apiUrl}/storage/v1/object/avatars/${alice.id}/avatar-1.png`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:3000",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,apikey,content-type,x-upsert",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization,apikey,content-type,x-upsert");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  test("a user uploads into their own folder, and everyone sees it at its public URL", async () => {
    const path = avatarObjectPath(alice.id, "image/png", 1_700_000_000_000);
    const response = await uploadLikeTheApp(alice, path, png, "image/png");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({ Id: expect.stringMatching(/^[0-9a-f-]{36}$/), Key: `avatars/${path}` });

    const shown = await fetch(avatarUrl(path));
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await shown.arrayBuffer()).equals(png)).toBe(true);

    const [row] = await adminQuery<{ owner_id: string; metadata: { size: number; mimetype: string } }>(
      "select owner_id, metadata from storage.objects where bucket_id = 'avatars' and name = $1",
      [path],
    );
    expect(row).toMatchObject({ owner_id: alice.id, metadata: { size: png.length, mimetype: "image/png" } });
  });

  test("nobody writes into someone else's folder; anon writes nowhere", async () => {
    const path = avatarObjectPath(alice.id, "image/png", 1_700_000_000_001);
    const byBob = await uploadLikeTheApp(bob, path, png, "image/png");
    expect(byBob.status).toBe(400);
    expect(await byBob.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "new row violates row-level security policy",
    });
    const anon = await anonClient()
      .storage.from("avatars")
      .upload(path, new Blob([png], { type: "image/png" }));
    expect(anon.error).toMatchObject({ statusCode: "403" });
    expect(await adminQuery("select 1 from storage.objects where bucket_id = 'avatars' and name = $1", [path])).toEqual([]);
  });

  test("the bucket's limits: 2 MiB and images only, in Storage's error shape", async () => {
    const big = await uploadLikeTheApp(
      alice,
      avatarObjectPath(alice.id, "image/png", 1_700_000_000_002),
      Buffer.alloc(2 * 1024 * 1024 + 1),
      "image/png",
    );
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual({
      statusCode: "413",
      code: "EntityTooLarge",
      error: "Payload too large",
      message: "The object exceeded the maximum allowed size",
    });
    const svg = await uploadLikeTheApp(alice, `${alice.id}/avatar-1700000000003.svg`, Buffer.from("<svg/>"), "image/svg+xml");
    expect(svg.status).toBe(400);
    // The uploader recognises this one by /mime type/ in the body.
    expect(await svg.text()).toMatch(/mime type image\/svg\+xml is not supported/);
    const gif = await uploadLikeTheApp(
      alice,
      avatarObjectPath(alice.id, "image/gif", 1_700_000_000_004),
      Buffer.from("GIF89a"),
      "image/gif",
    );
    expect(gif.status).toBe(200);
  });

  test("the server action removes the replaced avatar: its owner can, another user cannot", async () => {
    const old = avatarObjectPath(alice.id, "image/webp", 1_700_000_000_005);
    expect((await uploadLikeTheApp(alice, old, Buffer.from("RIFF"), "image/webp")).status).toBe(200);
    expect(await bob.client.storage.from("avatars").remove([old])).toEqual({ data: [], error: null });
    const removed = await alice.client.storage.from("avatars").remove([old]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((row) => row.name)).toEqual([old]);
    expect((await fetch(avatarUrl(old))).status).toBe(400);
  });
});
