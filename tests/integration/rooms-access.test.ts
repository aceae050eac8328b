// Rooms, gates and memberships through the REST API as each kind of caller sees them: anon, a
// signed-in non-member, a member, a moderator, the owner and the service role, each a real
// supabase-js client. Every rule lives in Postgres (supabase/migrations/*_rooms.sql); these tests
// check that a caller can do exactly what the rules allow, sees the errors PostgREST gives for the
// rest, and that bad input is refused without leaving half-written rows.
import { randomUUID } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminQuery, insertAuthUsers, anonClient, apiUrl, anonKey, clientWithJwt, serviceClient, userJwt } from "../helpers/stack.ts";

const run = randomUUID().slice(0, 8);
const people = ["owner", "moderator", "moderator2", "member", "bystander", "outsider"] as const;
type Person = (typeof people)[number];
const users = Object.fromEntries(
  people.map((label) => {
    const id = randomUUID();
    const email = `fx-rooms-${label}-${run}@example.test`;
    return [label, { id, email, client: clientWithJwt(userJwt(id, email)) }];
  }),
) as Record<Person, { id: string; email: string; client: SupabaseClient }>;
const anon = anonClient();
const service = serviceClient();

const localGate = { chain_id: 31337, contract_address: "0x" + "ab".repeat(20), standard: "erc721", token_id: null, min_balance: "1" };
const rooms = { open: { id: "", slug: `open-${run}` }, gated: { id: "", slug: `gated-${run}` } };
const slugsCreated: string[] = [];

async function createRoom(client: SupabaseClient, slug: string, gate: object | null = null) {
  slugsCreated.push(slug);
  return client.rpc("create_room", { slug, name: `Room ${slug}`, description: "A test room", gate: gate as never });
}

async function mustCreateRoom(slug: string, gate: object | null = null): Promise<string> {
  const { data, error } = await createRoom(users.owner.client, slug, gate);
  if (error) throw new Error(`create_room ${slug}: ${error.message}`);
  return (data as { id: string }).id;
}

async function roomRows(slug: string) {
  return adminQuery<{ id: string; visibility: string; member_count: number; gates: number; members: number }>(
    `select r.id, r.visibility, r.member_count, (select count(*)::int from public.room_gates g where g.room_id = r.id) as gates,
            (select count(*)::int from public.memberships m where m.room_id = r.id) as members
     from public.rooms r where r.slug = $1`,
    [slug],
  );
}

async function roleOf(roomId: string, userId: string): Promise<string | null> {
  const rows = await adminQuery<{ role: string }>("select role from public.memberships where room_id = $1 and user_id = $2", [
    roomId,
    userId,
  ]);
  return rows[0]?.role ?? null;
}

async function membersOf(client: SupabaseClient, roomId: string) {
  const { data, error } = await client.from("memberships").select("user_id, role").eq("room_id", roomId);
  expect(error).toBeNull();
  return data ?? [];
}

/** Adds a membership with a role as the server would (the service role), for fixtures. */
async function addMember(roomId: string, person: Person, role: "member" | "moderator") {
  const { error } = await service
    .from("memberships")
    .insert({ room_id: roomId, user_id: users[person].id, role, verified_at: new Date().toISOString() });
  if (error) throw new Error(`add ${person}: ${error.message}`);
}

beforeAll(async () => {
  await insertAuthUsers(people.map((p) => users[p]));
  rooms.open.id = await mustCreateRoom(rooms.open.slug);
  rooms.gated.id = await mustCreateRoom(rooms.gated.slug, localGate);
  for (const room of [rooms.open.id, rooms.gated.id]) {
    await addMember(room, "moderator", "moderator");
    await addMember(room, "moderator2", "moderator");
    await addMember(room, "member", "member");
  }
});

afterAll(async () => {
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [people.map((p) => users[p].id)]);
});

describe("anon", () => {
  test("reads public and gated rooms and the gate, with member counts", async () => {
    const { data, error } = await anon
      .from("rooms")
      .select("slug, visibility, member_count, gate:room_gates(chain_id, standard, min_balance)")
      .in("id", [rooms.open.id, rooms.gated.id])
      .order("slug");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: rooms.gated.slug, visibility: "gated", member_count: 4, gate: { chain_id: 31337, standard: "erc721", min_balance: "1" } },
      { slug: rooms.open.slug, visibility: "public", member_count: 4, gate: null },
    ]);
  });

  test("reads a public room's members but none of a gated room's", async () => {
    expect(await membersOf(anon, rooms.open.id)).toHaveLength(4);
    expect(await membersOf(anon, rooms.gated.id)).toEqual([]);
  });

  test("cannot join, change, remove or create: 401 with Postgres' permission error", async () => {
    const join = await anon.from("memberships").insert({ room_id: rooms.open.id, user_id: users.outsider.id });
    expect(join.status).toBe(401);
    expect(join.error).toMatchObject({ code: "42501", message: "permission denied for table memberships" });
    const edit = await anon.from("rooms").update({ name: "Hijacked" }).eq("id", rooms.open.id);
    expect(edit.error).toMatchObject({ code: "42501", message: "permission denied for table rooms" });
    const removal = await anon.from("room_gates").delete().eq("room_id", rooms.gated.id);
    expect(removal.error).toMatchObject({ code: "42501", message: "permission denied for table room_gates" });
    const created = await anon.rpc("create_room", { slug: `anon-${run}`, name: "Anon" });
    expect(created.error).toMatchObject({ code: "42501", message: "permission denied for function create_room" });
    const gate = await anon.rpc("set_room_gate", { room_id: rooms.gated.id, gate: null as never });
    expect(gate.error).toMatchObject({ code: "42501" });
    expect(await roomRows(`anon-${run}`)).toEqual([]);
  });

  test("the policy helpers are not part of the API", async () => {
    for (const helper of ["room_role", "can_read_room_content", "my_room_ids"]) {
      const response = await fetch(`${apiUrl}/rest/v1/rpc/${helper}`, {
        method: "POST",
        headers: { apikey: anonKey, "Content-Type": "application/json" },
        body: JSON.stringify({ target_room: rooms.gated.id }),
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "PGRST202" });
    }
  });
});

describe("a signed-in non-member", () => {
  const outsider = () => users.outsider.client;

  test("reads both rooms and the gate, a public room's members, no gated room's members", async () => {
    const { data } = await outsider().from("rooms").select("id").in("id", [rooms.open.id, rooms.gated.id]);
    expect(data).toHaveLength(2);
    const gate = await outsider().from("room_gates").select("contract_address").eq("room_id", rooms.gated.id).single();
    expect(gate.data).toEqual({ contract_address: localGate.contract_address });
    expect(await membersOf(outsider(), rooms.open.id)).toHaveLength(4);
    expect(await membersOf(outsider(), rooms.gated.id)).toEqual([]);
  });

  test("joins and leaves a public room; the member count follows", async () => {
    const joined = await outsider()
      .from("memberships")
      .insert({ room_id: rooms.open.id, user_id: users.outsider.id })
      .select("role")
      .single();
    expect(joined.status).toBe(201);
    expect(joined.data).toEqual({ role: "member" });
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ member_count: 5, members: 5 });
    const left = await outsider()
      .from("memberships")
      .delete()
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.outsider.id)
      .select("user_id");
    expect(left.data).toEqual([{ user_id: users.outsider.id }]);
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ member_count: 4, members: 4 });
  });

  test("cannot join a gated room by inserting their own membership: 403, row-level security", async () => {
    const joined = await outsider().from("memberships").insert({ room_id: rooms.gated.id, user_id: users.outsider.id });
    expect(joined.status).toBe(403);
    expect(joined.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "memberships"' });
    expect(await roleOf(rooms.gated.id, users.outsider.id)).toBeNull();
  });

  test("cannot add someone else, join with a role, or claim a verified wallet", async () => {
    const other = await outsider().from("memberships").insert({ room_id: rooms.open.id, user_id: users.bystander.id });
    expect(other.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "memberships"' });
    const withRole = await outsider().from("memberships").insert({ room_id: rooms.open.id, user_id: users.outsider.id, role: "moderator" });
    expect(withRole.error).toMatchObject({ code: "42501" });
    const verified = await outsider()
      .from("memberships")
      .insert({ room_id: rooms.gated.id, user_id: users.outsider.id, verified_wallet: "0x" + "cd".repeat(20) });
    expect(verified.error).toMatchObject({ code: "42501" });
    expect(await roleOf(rooms.open.id, users.bystander.id)).toBeNull();
    expect(await roleOf(rooms.open.id, users.outsider.id)).toBeNull();
  });

  test("cannot edit or delete someone's room, or change its gate", async () => {
    const edit = await outsider().from("rooms").update({ name: "Hijacked" }).eq("id", rooms.open.id).select("id");
    expect(edit).toMatchObject({ error: null, data: [] });
    const removal = await outsider().from("rooms").delete().eq("id", rooms.gated.id).select("id");
    expect(removal).toMatchObject({ error: null, data: [] });
    const gateEdit = await outsider().from("room_gates").update({ min_balance: "100" }).eq("room_id", rooms.gated.id).select("room_id");
    expect(gateEdit).toMatchObject({ error: null, data: [] });
    const gate = await outsider().rpc("set_room_gate", { room_id: rooms.gated.id, gate: null as never });
    expect(gate.status).toBe(403);
    expect(gate.error).toMatchObject({ code: "42501", message: "Only the owner changes who may enter the room" });
    expect((await roomRows(rooms.gated.slug))[0]).toMatchObject({ visibility: "gated", gates: 1 });
  });

  test("cannot join a room that was deleted: refused, nothing written", async () => {
    const slug = `gone-${run}`;
    const id = await mustCreateRoom(slug);
    await users.owner.client.from("rooms").delete().eq("id", id);
    const joined = await outsider().from("memberships").insert({ room_id: id, user_id: users.outsider.id });
    expect(joined.status).toBe(403);
    expect(joined.error).toMatchObject({ code: "42501" });
    expect(await adminQuery("select 1 from public.memberships where room_id = $1", [id])).toEqual([]);
  });

  test("concurrent joins of the same user make one membership", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 6 }, () => outsider().from("memberships").insert({ room_id: rooms.open.id, user_id: users.outsider.id })),
    );
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(1);
    for (const refused of attempts.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: "23505" });
    }
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ member_count: 5, members: 5 });
    const upserts = await Promise.all(
      Array.from({ length: 4 }, () =>
        outsider().from("memberships").upsert({ room_id: rooms.open.id, user_id: users.outsider.id }, { ignoreDuplicates: true }),
      ),
    );
    expect(upserts.map((u) => u.error)).toEqual([null, null, null, null]);
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ member_count: 5, members: 5 });
    await outsider().from("memberships").delete().eq("room_id", rooms.open.id).eq("user_id", users.outsider.id);
  });
});

describe("a member", () => {
  const member = () => users.member.client;

  test("reads a gated room's members", async () => {
    expect((await membersOf(member(), rooms.gated.id)).map((m) => m.role).sort()).toEqual(["member", "moderator", "moderator", "owner"]);
  });

  test("cannot make themself owner or moderator", async () => {
    for (const role of ["owner", "moderator"]) {
      const change = await member()
        .from("memberships")
        .update({ role })
        .eq("room_id", rooms.open.id)
        .eq("user_id", users.member.id)
        .select("role");
      expect(change).toMatchObject({ error: null, data: [] });
    }
    expect(await roleOf(rooms.open.id, users.member.id)).toBe("member");
  });

  test("cannot remove the owner or a moderator, edit the room or delete it", async () => {
    const removal = await member()
      .from("memberships")
      .delete()
      .eq("room_id", rooms.open.id)
      .in("user_id", [users.owner.id, users.moderator.id])
      .select("user_id");
    expect(removal).toMatchObject({ error: null, data: [] });
    const edit = await member().from("rooms").update({ name: "Member's room" }).eq("id", rooms.open.id).select("id");
    expect(edit).toMatchObject({ error: null, data: [] });
    const deleted = await member().from("rooms").delete().eq("id", rooms.open.id).select("id");
    expect(deleted).toMatchObject({ error: null, data: [] });
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ members: 4 });
  });
});

describe("a moderator", () => {
  const moderator = () => users.moderator.client;

  test("edits the room's name and description", async () => {
    const { data, error } = await moderator()
      .from("rooms")
      .update({ name: "Renamed by a moderator", description: "New words" })
      .eq("id", rooms.open.id)
      .select("name, description")
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: "Renamed by a moderator", description: "New words" });
  });

  test("cannot change the slug or the visibility: 403 with the reason", async () => {
    for (const change of [{ slug: `mod-${run}` }, { visibility: "gated" }]) {
      const { status, error } = await moderator().from("rooms").update(change).eq("id", rooms.open.id);
      expect(status).toBe(403);
      expect(error).toMatchObject({ code: "42501", message: "Only the owner changes the room's address or who may enter it" });
    }
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ visibility: "public" });
  });

  test("cannot change roles, remove another moderator or the owner, delete the room, or touch the gate", async () => {
    const promote = await moderator()
      .from("memberships")
      .update({ role: "moderator" })
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.member.id)
      .select("role");
    expect(promote).toMatchObject({ error: null, data: [] });
    const demote = await moderator()
      .from("memberships")
      .update({ role: "member" })
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.moderator2.id)
      .select("role");
    expect(demote).toMatchObject({ error: null, data: [] });
    const removal = await moderator()
      .from("memberships")
      .delete()
      .eq("room_id", rooms.open.id)
      .in("user_id", [users.moderator2.id, users.owner.id])
      .select("user_id");
    expect(removal).toMatchObject({ error: null, data: [] });
    const deleted = await moderator().from("rooms").delete().eq("id", rooms.open.id).select("id");
    expect(deleted).toMatchObject({ error: null, data: [] });
    const gate = await moderator().rpc("set_room_gate", { room_id: rooms.gated.id, gate: { ...localGate, min_balance: "5" } as never });
    expect(gate.error).toMatchObject({ code: "42501", message: "Only the owner changes who may enter the room" });
    const gateRemoval = await moderator().from("room_gates").delete().eq("room_id", rooms.gated.id).select("room_id");
    expect(gateRemoval).toMatchObject({ error: null, data: [] });
    expect(await roleOf(rooms.open.id, users.member.id)).toBe("member");
    expect(await roleOf(rooms.open.id, users.moderator2.id)).toBe("moderator");
    expect((await roomRows(rooms.gated.slug))[0]).toMatchObject({ gates: 1 });
  });

  test("removes a member", async () => {
    await addMember(rooms.open.id, "bystander", "member");
    const removal = await moderator()
      .from("memberships")
      .delete()
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.bystander.id)
      .select("user_id");
    expect(removal).toMatchObject({ error: null, data: [{ user_id: users.bystander.id }] });
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ member_count: 4, members: 4 });
  });
});

describe("the owner", () => {
  const owner = () => users.owner.client;

  test("promotes a member to moderator and back", async () => {
    const up = await owner()
      .from("memberships")
      .update({ role: "moderator" })
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.member.id)
      .select("role")
      .single();
    expect(up).toMatchObject({ error: null, data: { role: "moderator" } });
    const down = await owner()
      .from("memberships")
      .update({ role: "member" })
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.member.id)
      .select("role")
      .single();
    expect(down).toMatchObject({ error: null, data: { role: "member" } });
  });

  test("cannot make someone else owner, change or remove their own membership", async () => {
    const crown = await owner().from("memberships").update({ role: "owner" }).eq("room_id", rooms.open.id).eq("user_id", users.member.id);
    expect(crown.status).toBe(403);
    expect(crown.error).toMatchObject({ code: "42501", message: 'new row violates row-level security policy for table "memberships"' });
    const own = await owner()
      .from("memberships")
      .update({ role: "member" })
      .eq("room_id", rooms.open.id)
      .eq("user_id", users.owner.id)
      .select("role");
    expect(own).toMatchObject({ error: null, data: [] });
    const leave = await owner().from("memberships").delete().eq("room_id", rooms.open.id).eq("user_id", users.owner.id).select("user_id");
    expect(leave).toMatchObject({ error: null, data: [] });
    expect(await roleOf(rooms.open.id, users.owner.id)).toBe("owner");
    expect(await roleOf(rooms.open.id, users.member.id)).toBe("member");
  });

  test("cannot add members to a gated room: only the server does", async () => {
    const added = await owner().from("memberships").insert({ room_id: rooms.gated.id, user_id: users.bystander.id });
    expect(added.error).toMatchObject({ code: "42501" });
  });

  test("removes a moderator", async () => {
    const removal = await owner()
      .from("memberships")
      .delete()
      .eq("room_id", rooms.gated.id)
      .eq("user_id", users.moderator2.id)
      .select("user_id");
    expect(removal).toMatchObject({ error: null, data: [{ user_id: users.moderator2.id }] });
    expect((await roomRows(rooms.gated.slug))[0]).toMatchObject({ member_count: 3, members: 3 });
  });

  test("changes the slug", async () => {
    const slug = `opened-${run}`;
    const { data, error } = await owner().from("rooms").update({ slug }).eq("id", rooms.open.id).select("slug").single();
    expect(error).toBeNull();
    expect(data).toEqual({ slug });
    rooms.open.slug = slug;
  });

  test("gates a public room, replaces the gate and removes it through set_room_gate", async () => {
    const set = await owner().rpc("set_room_gate", {
      room_id: rooms.open.id,
      gate: { chain_id: 8453, contract_address: "0x" + "EF".repeat(20), standard: "erc20", min_balance: "1000" } as never,
    });
    expect(set.error).toBeNull();
    expect(set.data).toMatchObject({
      room_id: rooms.open.id,
      chain_id: 8453,
      contract_address: "0x" + "ef".repeat(20),
      min_balance: "1000",
    });
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ visibility: "gated", gates: 1 });
    expect(await membersOf(anon, rooms.open.id)).toEqual([]);

    const replaced = await owner().rpc("set_room_gate", {
      room_id: rooms.open.id,
      gate: { chain_id: 137, contract_address: "0x" + "12".repeat(20), standard: "erc1155", token_id: "9" } as never,
    });
    expect(replaced.data).toMatchObject({ chain_id: 137, standard: "erc1155", token_id: "9", min_balance: "1" });

    const removed = await owner().rpc("set_room_gate", { room_id: rooms.open.id, gate: null as never });
    expect(removed.error).toBeNull();
    expect((await roomRows(rooms.open.slug))[0]).toMatchObject({ visibility: "public", gates: 0 });
    expect(await membersOf(anon, rooms.open.id)).toHaveLength(4);
  });

  test("cannot remove a gated room's gate without opening the room: refused at commit, nothing changed", async () => {
    const removal = await owner().from("room_gates").delete().eq("room_id", rooms.gated.id);
    expect(removal.status).toBe(400);
    expect(removal.error).toMatchObject({ code: "23514", message: "A gated room needs a gate" });
    const opened = await owner().from("rooms").update({ visibility: "public" }).eq("id", rooms.gated.id);
    expect(opened.error).toMatchObject({ code: "23514", message: "A public room has no gate" });
    expect((await roomRows(rooms.gated.slug))[0]).toMatchObject({ visibility: "gated", gates: 1 });
  });

  test("deletes the room, with its gate and memberships", async () => {
    const slug = `doomed-${run}`;
    const id = await mustCreateRoom(slug, localGate);
    await addMember(id, "member", "member");
    const { data, error } = await owner().from("rooms").delete().eq("id", id).select("slug");
    expect(error).toBeNull();
    expect(data).toEqual([{ slug }]);
    expect(await roomRows(slug)).toEqual([]);
    expect(
      await adminQuery("select 1 from public.memberships where room_id = $1 union all select 1 from public.room_gates where room_id = $1", [
        id,
      ]),
    ).toEqual([]);
  });
});

describe("the service role (server code)", () => {
  test("reads every membership, adds a verified member to a gated room and removes one", async () => {
    expect(await membersOf(service, rooms.gated.id)).toHaveLength(3);
    const added = await service
      .from("memberships")
      .insert({
        room_id: rooms.gated.id,
        user_id: users.outsider.id,
        verified_wallet: "0x" + "cd".repeat(20),
        verified_at: new Date().toISOString(),
      })
      .select("role")
      .single();
    expect(added).toMatchObject({ error: null, data: { role: "member" } });
    expect(await membersOf(users.outsider.client, rooms.gated.id)).toHaveLength(4);
    const removed = await service
      .from("memberships")
      .delete()
      .eq("room_id", rooms.gated.id)
      .eq("user_id", users.outsider.id)
      .select("user_id");
    expect(removed.data).toHaveLength(1);
    expect(await membersOf(users.outsider.client, rooms.gated.id)).toEqual([]);
  });

  test("cannot remove the owner's membership either", async () => {
    const { error } = await service.from("memberships").delete().eq("room_id", rooms.gated.id).eq("user_id", users.owner.id);
    expect(error).toMatchObject({ code: "23514", message: "A room's owner stays its member" });
    expect(await roleOf(rooms.gated.id, users.owner.id)).toBe("owner");
  });
});

describe("bad input through the API: a clear error, nothing half-written", () => {
  const creator = () => users.outsider.client;

  test.each([
    ["too short", "ab"],
    ["too long", "a".repeat(49)],
    ["upper case", "Loud-Room"],
    ["leading -", "-room"],
    ["trailing -", "room-"],
    ["a space", "my room"],
  ])("a slug that is %s is refused by the slug rule", async (_, slug) => {
    const { status, error } = await createRoom(creator(), slug);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "23514", message: 'new row for relation "rooms" violates check constraint "rooms_slug_format"' });
    expect(await roomRows(slug)).toEqual([]);
  });

  test('a taken slug: 409, the unique constraint whose comment reads "That address is taken"', async () => {
    const { status, error } = await createRoom(creator(), rooms.gated.slug);
    expect(status).toBe(409);
    expect(error).toMatchObject({ code: "23505", message: 'duplicate key value violates unique constraint "rooms_slug_key"' });
    const [comment] = await adminQuery<{ text: string }>(
      "select obj_description(oid, 'pg_constraint') as text from pg_constraint where conname = 'rooms_slug_key'",
    );
    expect(comment.text).toBe("That address is taken");
    expect(await roomRows(rooms.gated.slug)).toHaveLength(1);
  });

  test("names and descriptions beyond their lengths are refused", async () => {
    const long = await creator().rpc("create_room", { slug: `long-${run}`, name: "n".repeat(81) });
    expect(long.error).toMatchObject({ code: "23514", message: expect.stringContaining("rooms_name_length") });
    const blank = await creator().rpc("create_room", { slug: `blank-${run}`, name: "   " });
    expect(blank.error).toMatchObject({ code: "23514", message: expect.stringContaining("rooms_name_length") });
    const wordy = await creator().rpc("create_room", { slug: `wordy-${run}`, name: "Wordy", description: "d".repeat(501) });
    expect(wordy.error).toMatchObject({ code: "23514", message: expect.stringContaining("rooms_description_length") });
    expect(await adminQuery("select 1 from public.rooms where slug = any($1)", [[`long-${run}`, `blank-${run}`, `wordy-${run}`]])).toEqual(
      [],
    );
  });

  test.each([
    ["an unsupported chain", { ...localGate, chain_id: 56 }, "room_gates_chain_supported"],
    ["a contract address that is not one", { ...localGate, contract_address: "vitalik.eth" }, "room_gates_contract_address_format"],
    ["erc1155 without a token id", { ...localGate, standard: "erc1155" }, "room_gates_token_id_for_erc1155"],
    ["a token id on erc20", { ...localGate, standard: "erc20", token_id: "1" }, "room_gates_token_id_for_erc1155"],
    ["min_balance 0", { ...localGate, min_balance: "0" }, "room_gates_min_balance_positive"],
    ["a negative min_balance", { ...localGate, min_balance: "-5" }, "room_gates_min_balance_positive"],
    ["a non-numeric min_balance", { ...localGate, min_balance: "lots" }, "room_gates_min_balance_positive"],
    ["a fractional min_balance", { ...localGate, min_balance: 1.5 }, "room_gates_min_balance_positive"],
  ])("a gate with %s: 400, the gate rule named, no room without its gate", async (_, gate, constraint) => {
    const slug = `bad-gate-${randomUUID().slice(0, 8)}`;
    const { status, error } = await createRoom(creator(), slug, gate);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "23514", message: `new row for relation "room_gates" violates check constraint "${constraint}"` });
    expect(await roomRows(slug)).toEqual([]);
  });

  test("a chain id that is not a number is refused", async () => {
    const slug = `bad-chain-${run}`;
    const { error } = await createRoom(creator(), slug, { ...localGate, chain_id: "base" });
    expect(error).toMatchObject({ code: "22P02" });
    expect(await roomRows(slug)).toEqual([]);
  });

  test("set_room_gate with a bad gate leaves the room as it was", async () => {
    const slug = `keeps-${run}`;
    const { data } = await createRoom(creator(), slug);
    const roomId = (data as { id: string }).id;
    const { error } = await creator().rpc("set_room_gate", { room_id: roomId, gate: { ...localGate, min_balance: "0" } as never });
    expect(error).toMatchObject({ code: "23514", message: expect.stringContaining("room_gates_min_balance_positive") });
    expect((await roomRows(slug))[0]).toMatchObject({ visibility: "public", gates: 0 });
  });

  test("a gated room inserted without its gate is refused at commit and not kept", async () => {
    const slug = `no-gate-${run}`;
    const { status, error } = await creator()
      .from("rooms")
      .insert({ slug, name: "No gate", owner_id: users.outsider.id, visibility: "gated" });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "23514", message: "A gated room needs a gate" });
    expect(await roomRows(slug)).toEqual([]);
  });

  test("no room of this run is gated without a gate, and no gate belongs to a public room", async () => {
    const broken = await adminQuery(
      `select r.slug from public.rooms r left join public.room_gates g on g.room_id = r.id
       where r.slug = any($1) and ((r.visibility = 'gated') <> (g.room_id is not null))`,
      [[...slugsCreated, rooms.open.slug, rooms.gated.slug]],
    );
    expect(broken).toEqual([]);
  });
});
