// Room covers against the real `room-covers` bucket (config.toml: public, 5 MB, png/jpeg/webp) and the
// project's policies (supabase/migrations/*_room_covers.sql), uploaded with the very request the
// settings page's uploader sends: the room's owner and moderators write in the room's folder;
// members, non-members and anon write nowhere; nobody writes into another room's folder.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { coverObjectPath } from "../../lib/storage/buckets.ts";
import { uploadProblem } from "../../lib/storage/upload.ts";
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

const people = ["owner", "moderator", "member", "outsider", "other-owner"].map((label) => {
  const id = randomUUID();
  const email = `covers-${label}-${id.slice(0, 8)}@example.test`;
  const jwt = userJwt(id, email);
  return { id, email, jwt, client: clientWithJwt(jwt) };
});
const [owner, moderator, member, outsider, otherOwner] = people;
const service = serviceClient();
let room = "";
let otherRoom = "";

// A 1×1 PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
let tick = 1_700_000_000_000;
const nextPath = (roomId: string, type = "image/png") => coverObjectPath(roomId, type, tick++);

/** What cover-uploader.tsx sends: POST, the session's token, the publishable key, the file's type, no upsert. */
async function upload(token: string | null, path: string, body: Buffer | Uint8Array, type = "image/png") {
  const response = await fetch(`${apiUrl}/storage/v1/object/room-covers/${path}`, {
    method: "POST",
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), apikey: publishableKey, "Content-Type": type, "x-upsert": "false" },
    body: new Uint8Array(body),
  });
  return { status: response.status, body: await response.text() };
}

const stored = (path: string) => adminQuery("select 1 from storage.objects where bucket_id = 'room-covers' and name = $1", [path]);
const publicUrl = (path: string) => `${apiUrl}/storage/v1/object/public/room-covers/${path}`;

async function createRoom(person: (typeof people)[number], slug: string): Promise<string> {
  const { data, error } = await person.client.rpc("create_room", { slug, name: `Covers ${slug}`, description: "", gate: null });
  if (error || !data) throw new Error(`create_room: ${error?.message}`);
  return (data as { id: string }).id;
}

beforeAll(async () => {
  await insertAuthUsers(people);
  const suffix = randomUUID().slice(0, 8);
  room = await createRoom(owner, `covers-${suffix}`);
  otherRoom = await createRoom(otherOwner, `covers-other-${suffix}`);
  // Memberships are set up with the service role: who may add them is not what this file tests.
  const { error } = await service.from("memberships").insert([
    { room_id: room, user_id: moderator.id, role: "moderator" },
    { room_id: room, user_id: member.id, role: "member" },
  ]);
  if (error) throw error;
});

afterAll(async () => {
  for (const roomId of [room, otherRoom].filter(Boolean)) {
    const { data } = await service.storage.from("room-covers").list(roomId);
    if (data?.length) await service.storage.from("room-covers").remove(data.map((item) => `${roomId}/${item.name}`));
  }
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[room, otherRoom].filter(Boolean)]);
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [people.map((person) => person.id)]);
});

describe("who writes a room's cover", () => {
  test("the owner uploads into the room's folder, and everyone sees it at its public URL", async () => {
    const path = nextPath(room);
    const result = await upload(owner.jwt, path, png);
    expect(result.status).toBe(200);
    expect(uploadProblem("room-covers", result.status, result.body)).toBeNull();
    const shown = await fetch(publicUrl(path));
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await shown.arrayBuffer()).equals(png)).toBe(true);
  });

  test("a moderator uploads too, and the owner points the room at it", async () => {
    const path = nextPath(room, "image/webp");
    expect((await upload(moderator.jwt, path, Buffer.from("RIFF0000WEBP"), "image/webp")).status).toBe(200);
    const { data, error } = await moderator.client.from("rooms").update({ cover_path: path }).eq("id", room).select("cover_path");
    expect(error).toBeNull();
    expect(data).toEqual([{ cover_path: path }]);
  });

  test("a member, a non-member and anon are refused, and nothing is stored", async () => {
    for (const [who, token] of [
      ["member", member.jwt],
      ["outsider", outsider.jwt],
      ["anon", null],
    ] as const) {
      const path = nextPath(room);
      const result = await upload(token, path, png);
      expect(result.status, who).toBe(400);
      expect(JSON.parse(result.body), who).toMatchObject({ statusCode: "403" });
      expect(uploadProblem("room-covers", result.status, result.body), who).toBe(
        "Only the room's owner and moderators can change its cover.",
      );
      expect(await stored(path), who).toEqual([]);
    }
    const anonUpload = await anonClient()
      .storage.from("room-covers")
      .upload(nextPath(room), new Blob([png], { type: "image/png" }));
    expect(anonUpload.error).toMatchObject({ statusCode: "403" });
  });

  test("nobody writes into another room's folder, outside any room's folder, or into a folder that is not a room id", async () => {
    for (const path of [
      nextPath(otherRoom),
      `cover-${tick++}.png`,
      `not-a-room/cover-${tick++}.png`,
      `${room.toUpperCase()}/cover-${tick++}.png`,
    ]) {
      const result = await upload(owner.jwt, path, png);
      // A refusal, never a server error: a folder name that is not a uuid must not break the policy.
      expect(result.status, path).toBe(400);
      expect(JSON.parse(result.body), path).toMatchObject({ statusCode: "403" });
      expect(await stored(path), path).toEqual([]);
    }
  });

  test("the bucket's limits: PNG, JPEG or WebP only, up to 5 MB, each read as the rule", async () => {
    const svg = await upload(owner.jwt, `${room}/cover-${tick++}.svg`, Buffer.from("<svg/>"), "image/svg+xml");
    expect(svg.status).toBe(400);
    expect(uploadProblem("room-covers", svg.status, svg.body)).toBe("Covers can be PNG, JPEG or WebP");
    const gif = await upload(owner.jwt, `${room}/cover-${tick++}.gif`, Buffer.from("GIF89a"), "image/gif");
    expect(uploadProblem("room-covers", gif.status, gif.body)).toBe("Covers can be PNG, JPEG or WebP");

    const bigPath = nextPath(room);
    const big = await upload(owner.jwt, bigPath, Buffer.alloc(5 * 1024 * 1024 + 1), "image/png");
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body)).toMatchObject({ statusCode: "413" });
    expect(uploadProblem("room-covers", big.status, big.body)).toBe("Covers up to 5 MB");
    expect(await stored(bigPath)).toEqual([]);
    expect((await upload(owner.jwt, nextPath(room, "image/jpeg"), Buffer.alloc(5 * 1024 * 1024, 1), "image/jpeg")).status).toBe(200);
  });

  test("removing: a member removes nothing; a moderator removes a replaced cover; the owner empties the folder before deleting the room", async () => {
    const path = nextPath(room);
    expect((await upload(owner.jwt, path, png)).status).toBe(200);
    expect(await member.client.storage.from("room-covers").remove([path])).toEqual({ data: [], error: null });
    expect(await stored(path)).toHaveLength(1);
    const byModerator = await moderator.client.storage.from("room-covers").remove([path]);
    expect(byModerator.data?.map((item) => item.name)).toEqual([path]);
    expect(await stored(path)).toEqual([]);

    // What the delete-room action does: list the folder, remove it, then delete the room.
    const listed = await owner.client.storage.from("room-covers").list(room, { limit: 1000 });
    expect(listed.error).toBeNull();
    expect(listed.data?.length).toBeGreaterThan(0);
    const removed = await owner.client.storage.from("room-covers").remove(listed.data!.map((item) => `${room}/${item.name}`));
    expect(removed.data).toHaveLength(listed.data!.length);
    expect(await adminQuery("select 1 from storage.objects where bucket_id = 'room-covers' and name like $1", [`${room}/%`])).toEqual([]);
  });
});
