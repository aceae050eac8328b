// The settings page's member list (lib/rooms/members.ts) against the real policies: rank order,
// each member's wallet by ENS name (the one that qualified for a gated room first), and only what
// the caller may read — a gated room's members are hidden from non-members.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadRoomMembers } from "../../lib/rooms/members.ts";
import { adminQuery, insertAuthUsers, anonClient, clientWithJwt, serviceClient, userJwt } from "../helpers/stack.ts";

const people = ["owner", "moderator", "member", "outsider"].map((label) => {
  const id = randomUUID();
  const email = `members-${label}-${id.slice(0, 8)}@example.test`;
  return { id, email, label, client: clientWithJwt(userJwt(id, email)) };
});
const [owner, moderator, member, outsider] = people;
const service = serviceClient();
const address = () => `0x${randomBytes(20).toString("hex")}`;
const wallets = { moderator: address(), memberFirst: address(), memberQualified: address() };
let openRoom = "";
let gatedRoom = "";

beforeAll(async () => {
  await insertAuthUsers(people);
  for (const p of people) await adminQuery("update public.profiles set display_name = $2 where id = $1", [p.id, `The ${p.label}`]);
  await adminQuery(
    `insert into public.wallets (address, user_id, ens_name, verified_at) values
       ($1, $4, 'mod.eth', now()), ($2, $5, null, now() - interval '1 day'), ($3, $5, 'holder.eth', now())`,
    [wallets.moderator, wallets.memberFirst, wallets.memberQualified, moderator.id, member.id],
  );
  const suffix = randomUUID().slice(0, 8);
  const open = await owner.client.rpc("create_room", { slug: `members-open-${suffix}`, name: "Open", description: "", gate: null });
  const gated = await owner.client.rpc("create_room", {
    slug: `members-gated-${suffix}`,
    name: "Gated",
    description: "",
    gate: { chain_id: 31337, contract_address: `0x${"ab".repeat(20)}`, standard: "erc721", token_id: null, min_balance: "1" },
  });
  if (open.error || gated.error) throw new Error(`create_room: ${open.error?.message ?? gated.error?.message}`);
  openRoom = (open.data as { id: string }).id;
  gatedRoom = (gated.data as { id: string }).id;
  // Who is in the rooms is arranged with the service role; reading them back is the test.
  const { error } = await service.from("memberships").insert([
    { room_id: openRoom, user_id: member.id, role: "member" },
    { room_id: openRoom, user_id: moderator.id, role: "moderator" },
    {
      room_id: gatedRoom,
      user_id: member.id,
      role: "member",
      verified_wallet: wallets.memberQualified,
      verified_at: new Date().toISOString(),
    },
  ]);
  if (error) throw error;
});

afterAll(async () => {
  await adminQuery("delete from public.rooms where id = any($1::uuid[])", [[openRoom, gatedRoom].filter(Boolean)]);
  await adminQuery("delete from auth.users where id = any($1::uuid[])", [people.map((p) => p.id)]);
});

test("owner first, then moderators, then members; each with a wallet by ENS name when they have one", async () => {
  const result = await loadRoomMembers(owner.client as never, openRoom);
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  expect(result.members.map((m) => [m.displayName, m.role])).toEqual([
    ["The owner", "owner"],
    ["The moderator", "moderator"],
    ["The member", "member"],
  ]);
  expect(result.members[0].wallet).toBeNull();
  expect(result.members[1].wallet).toEqual({ address: wallets.moderator, ensName: "mod.eth", ensAvatar: null });
  // Not in a gated room: the first wallet they linked.
  expect(result.members[2].wallet).toEqual({ address: wallets.memberFirst, ensName: null, ensAvatar: null });
  expect(result.members[2].username).toMatch(/^[a-z0-9_]{3,24}$/);
});

test("in a gated room, the wallet that qualified is the one shown", async () => {
  const result = await loadRoomMembers(member.client as never, gatedRoom);
  expect(result.ok && result.members.map((m) => [m.role, m.wallet?.ensName ?? null])).toEqual([
    ["owner", null],
    ["member", "holder.eth"],
  ]);
});

test("a public room's members are listed to anyone; a gated room's to its members only", async () => {
  const asAnon = await loadRoomMembers(anonClient() as never, openRoom);
  expect(asAnon.ok && asAnon.members).toHaveLength(3);
  const asOutsider = await loadRoomMembers(outsider.client as never, gatedRoom);
  expect(asOutsider).toEqual({ ok: true, members: [] });
});
