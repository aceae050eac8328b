// Presence from the server's truth, tried through REST as an attacker would: nobody writes the
// presence table; mark_here writes only the caller's own page, in a room they belong to; who_is_here
// (what every "Here now" and listeners list shows) names people by their own records, and nobody who
// left, was removed, or was never there. Realtime presence payloads are only prompts
// (tests/unit/room-presence.test.ts; e2e/live-room.spec.ts tries a forged one on a real page).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { addMember } from "../helpers/post-fixtures";
import { createRoom } from "../helpers/rooms";
import { adminQuery, anonClient } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

type Member = Awaited<ReturnType<typeof signedInUser>>;
let owner: Member;
let member: Member;
let outsider: Member;
let room: { id: string; slug: string };

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all(["here-owner", "here-member", "here-outsider"].map((label) => signedInUser(label)));
  room = await createRoom(owner.client, "here-rows");
  await addMember(room.id, member.id);
});

afterAll(async () => {
  for (const person of [owner, member, outsider]) if (person) await admin.auth.admin.deleteUser(person.id);
});

const namesHere = async (client = owner.client) =>
  ((await client.rpc("who_is_here", { target_room: room.id })).data ?? []).map((row: { user_id: string }) => row.user_id);

test("nobody writes presence rows through REST, not even for themselves", async () => {
  for (const user_id of [member.id, owner.id]) {
    const { error } = await member.client.from("presence").insert({ room_id: room.id, user_id, tab_id: randomUUID() });
    expect(error).toMatchObject({ code: "42501" });
  }
});

test("a member's page is marked for the member themselves, and shown with their own name", async () => {
  const tab = randomUUID();
  const { data: since, error } = await member.client.rpc("mark_here", { target_room: room.id, tab });
  expect(error).toBeNull();
  expect(Date.parse(since as string)).toBeGreaterThan(Date.now() - 60_000);
  const { data: profile } = await admin.from("profiles").select("username, display_name").eq("id", member.id).single();
  const { data: rows } = await owner.client.rpc("who_is_here", { target_room: room.id });
  expect(rows).toEqual([
    expect.objectContaining({ user_id: member.id, username: profile!.username, display_name: profile!.display_name, role: "member" }),
  ]);
  await member.client.rpc("leave_here", { target_room: room.id, tab });
  expect(await namesHere()).toEqual([]);
});

test("someone who is not a member cannot appear; anon cannot mark at all", async () => {
  const refused = await outsider.client.rpc("mark_here", { target_room: room.id, tab: randomUUID() });
  expect(refused.error).toMatchObject({ code: "42501", message: "Only members of this room are shown here" });
  const anon = await anonClient().rpc("mark_here", { target_room: room.id, tab: randomUUID() });
  expect(anon.error).toMatchObject({ code: "42501" });
  expect(await namesHere()).toEqual([]);
});

test("a page that stops marking goes after 75 s; a removed member goes at once", async () => {
  await member.client.rpc("mark_here", { target_room: room.id, tab: randomUUID() });
  expect(await namesHere()).toEqual([member.id]);
  await adminQuery("update public.presence set seen_at = now() - interval '76 seconds' where user_id = $1", [member.id]);
  expect(await namesHere()).toEqual([]);
  await member.client.rpc("mark_here", { target_room: room.id, tab: randomUUID() });
  expect(await namesHere()).toEqual([member.id]);
  await adminQuery("delete from public.memberships where room_id = $1 and user_id = $2", [room.id, member.id]);
  expect(await namesHere()).toEqual([]);
  const again = await member.client.rpc("mark_here", { target_room: room.id, tab: randomUUID() });
  expect(again.error).toMatchObject({ code: "42501" });
});
