// The rooms directory and room page reads (lib/rooms/queries.ts) through the real REST API, as
// anon and as a signed-in person: literal name search (%, _ and * typed are not wildcards), pages
// newest first by (created_at, id) with no room twice or missed, and the room page's read.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getRoomBySlug, listRooms, suggestedRooms } from "../../lib/rooms/queries";
import { anonClient } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

type User = Awaited<ReturnType<typeof signedInUser>>;
const tag = `dir${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let owner: User;
let visitor: User;
const ids: string[] = [];

beforeAll(async () => {
  owner = await signedInUser("dir-owner");
  visitor = await signedInUser("dir-visitor");
  // five rooms; two share a timestamp so the id breaks the tie
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes)).toISOString();
  const rows = [
    { slug: `${tag}-a`, name: `${tag} 100% vinyl`, created_at: at(1) },
    { slug: `${tag}-b`, name: `${tag} under_score`, created_at: at(2) },
    { slug: `${tag}-c`, name: `${tag} underXscore`, created_at: at(3) },
    { slug: `${tag}-d`, name: `${tag} star*dust`, created_at: at(3) },
    { slug: `${tag}-e`, name: `${tag} 100 percent`, created_at: at(4) },
  ];
  const { data, error } = await admin
    .from("rooms")
    .insert(rows.map((row) => ({ ...row, owner_id: owner.id })))
    .select("id");
  if (error) throw error;
  ids.push(...data.map((row) => row.id));
});

afterAll(async () => {
  await admin.from("rooms").delete().in("id", ids);
  for (const user of [owner, visitor]) if (user) await admin.auth.admin.deleteUser(user.id);
});

const names = (page: { rooms: { name: string }[] }) => page.rooms.map((room) => room.name.slice(tag.length + 1));

describe("directory search", () => {
  test("matches part of a name, case-insensitively, newest first", async () => {
    const result = await listRooms(anonClient(), { search: `${tag.toUpperCase()} UNDER` });
    expect(result.ok && names(result.data)).toEqual(["underXscore", "under_score"]);
  });

  test("% and _ typed are literal characters, not wildcards", async () => {
    const percent = await listRooms(anonClient(), { search: `${tag} 100%` });
    expect(percent.ok && names(percent.data)).toEqual(["100% vinyl"]);
    const underscore = await listRooms(anonClient(), { search: `${tag} under_` });
    expect(underscore.ok && names(underscore.data)).toEqual(["under_score"]);
  });

  test("a typed * matches itself only", async () => {
    const result = await listRooms(anonClient(), { search: `${tag} star*` });
    expect(result.ok && names(result.data)).toEqual(["star*dust"]);
  });

  test("a name nobody uses finds nothing", async () => {
    const result = await listRooms(anonClient(), { search: `${tag} nothing like this` });
    expect(result).toEqual({ ok: true, data: { rooms: [], nextCursor: null } });
  });
});

describe("directory pages", () => {
  test("pages of two walk every room once, newest first, ties broken by id", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const result = await listRooms(anonClient(), { search: tag, cursor, pageSize: 2 });
      if (!result.ok) throw new Error(result.error.message);
      seen.push(...names(result.data));
      cursor = result.data.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen[0]).toBe("100 percent");
    expect(seen.at(-1)).toBe("100% vinyl");
    expect(seen.slice(1, 3).sort()).toEqual(["star*dust", "underXscore"]);
  });

  test("a mangled cursor starts from the newest room instead of failing", async () => {
    const result = await listRooms(anonClient(), { search: tag, cursor: "not-a-cursor!", pageSize: 2 });
    expect(result.ok && names(result.data)[0]).toBe("100 percent");
  });

  test("each room carries its gate (none for open rooms) and member count", async () => {
    const result = await listRooms(anonClient(), { search: `${tag} 100 percent` });
    expect(result.ok && result.data.rooms[0]).toMatchObject({ visibility: "public", gate: null, member_count: 1 });
  });
});

describe("suggestedRooms", () => {
  test("the busiest open rooms the person has not joined, carrying last activity and live like the directory's cards", async () => {
    const busiest = ids[4];
    // More members than any room the shared database holds, so it comes first whatever ran before.
    const { error: counted } = await admin.from("rooms").update({ member_count: 1_000_000 }).eq("id", busiest);
    expect(counted).toBeNull();
    const { error: posted } = await admin
      .from("posts")
      .insert({ room_id: busiest, author_id: owner.id, title: "Suggested", media_kind: "embed", media_url: "https://vimeo.com/1" });
    expect(posted).toBeNull();
    const { error: started } = await admin
      .from("listening_sessions")
      .insert({ room_id: busiest, started_by: owner.id, host_id: owner.id, host_seen_at: new Date().toISOString() });
    expect(started).toBeNull();

    const [first] = await suggestedRooms(visitor.client, visitor.id, 1);
    expect(first).toMatchObject({ id: busiest, gate: null, live: true, last_activity_at: expect.any(String) });
    // The owner is a member of it: never suggested to them.
    expect((await suggestedRooms(owner.client, owner.id, 50)).map((room) => room.id)).not.toContain(busiest);
  });
});

describe("getRoomBySlug", () => {
  test("the room, its owner and the caller's own membership", async () => {
    const asOwner = await getRoomBySlug(owner.client, `${tag}-a`);
    expect(asOwner.ok && asOwner.data).toMatchObject({
      room: { name: `${tag} 100% vinyl` },
      gate: null,
      membership: { role: "owner" },
      viewerId: owner.id,
    });
    expect(asOwner.ok && asOwner.data.owner?.id).toBe(owner.id);
    const asVisitor = await getRoomBySlug(visitor.client, `${tag}-a`);
    expect(asVisitor.ok && asVisitor.data.membership).toBeNull();
    const asAnon = await getRoomBySlug(anonClient(), `${tag}-a`);
    expect(asAnon.ok && asAnon.data).toMatchObject({ membership: null, viewerId: null });
  });

  test("an unknown or malformed address is not found", async () => {
    expect(await getRoomBySlug(anonClient(), `${tag}-zzz`)).toMatchObject({ ok: false, error: { kind: "not_found" } });
    expect(await getRoomBySlug(anonClient(), "Not A Slug")).toMatchObject({ ok: false, error: { kind: "not_found" } });
  });
});
