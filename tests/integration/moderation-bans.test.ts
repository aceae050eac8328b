// Bans through the API, as people would meet them: supabase-js as the owner, a moderator, the banned
// person and a second account of theirs; join-room on the local chain (a real ERC-721 pass); raw
// realtime sockets that never leave politely. A banned member cannot rejoin a public room (REST or
// join-room), nor a gated one holding the pass — with the same wallet, or with the wallet moved to a
// second account — and their live access ends; they still read the public room; unbanning lets them
// back. (supabase/migrations/20261129000200_bans.sql)
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { contracts } from "../../chain/deployment";
import { moderationRefusal } from "../../lib/moderation/errors";
import { roomBans, roomStanding } from "../../lib/moderation/queries";
import { banLine } from "../../lib/moderation/standing";
import { roomTopic } from "../../lib/realtime/room-channel";
import { sessionTopic } from "../../lib/sessions/types";
import { callJoinRoom, createRoom, membershipsOf } from "../helpers/rooms";
import { adminQuery, anonKey, apiUrl } from "../helpers/stack";
import { mintErc721 } from "../helpers/tokens";
import { admin, linkWallet, randomWallet, signedInUser } from "../helpers/wallets";

vi.setConfig({ testTimeout: 120_000 });

type User = Awaited<ReturnType<typeof signedInUser>>;
const users: User[] = [];
const wallets: string[] = [];
const sockets: SupabaseClient[] = [];

async function person(label: string): Promise<User> {
  const user = await signedInUser(label);
  users.push(user);
  return user;
}

const erc721Gate = {
  chain_id: 31337,
  contract_address: contracts.erc721.toLowerCase(),
  standard: "erc721" as const,
  token_id: null,
  min_balance: "1",
};

let owner: User;
let moderator: User;

async function addModerator(roomId: string) {
  await adminQuery("insert into public.memberships (room_id, user_id, role) values ($1, $2, 'moderator')", [roomId, moderator.id]);
}

async function post(roomId: string, title: string) {
  await adminQuery(
    "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, $3, 'embed', 'https://vimeo.com/76979871')",
    [roomId, owner.id, title],
  );
}

type Broadcast = { event: string; payload: Record<string, unknown> };

async function join(user: User, topic: string) {
  const { data } = await user.client.auth.getSession();
  const token = data.session!.access_token;
  const made = createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false }, accessToken: async () => token });
  await made.realtime.setAuth();
  sockets.push(made);
  const channel: RealtimeChannel = made.channel(topic, { config: { private: true } });
  const got: Broadcast[] = [];
  channel.on("broadcast", { event: "*" }, (message) => got.push(message as unknown as Broadcast));
  const status = await new Promise<string>((resolve) => channel.subscribe((s) => resolve(s)));
  return { got, status, events: () => got.map((message) => message.event) };
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  [owner, moderator] = await Promise.all([person("ban-owner"), person("ban-moderator")]);
}, 120_000);

afterAll(async () => {
  await Promise.all(sockets.map((c) => c.removeAllChannels().catch(() => undefined)));
  for (const user of users) await admin.auth.admin.deleteUser(user.id);
  if (wallets.length) await admin.from("wallets").delete().in("address", wallets);
});

describe("a banned member of a public room", () => {
  test("cannot rejoin through REST or join-room, still reads the room as a visitor, reads their own ban, and may rejoin once unbanned", async () => {
    const room = await createRoom(owner.client, "ban-public");
    await addModerator(room.id);
    const member = await person("ban-public-member");
    expect((await callJoinRoom(member.client, { room_id: room.id })).status).toBe(201);
    await post(room.id, "Open to all");

    // a member cannot ban; the moderator can, for a day
    const byMember = await member.client.rpc("ban_member", { room_id: room.id, user_id: moderator.id, reason: "" });
    expect(byMember.error).toMatchObject({ code: "42501", message: "Only the room's owner and moderators can ban people" });
    const until = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const banned = await moderator.client.rpc("ban_member", {
      room_id: room.id,
      user_id: member.id,
      reason: "spam links",
      expires_at: until,
    });
    expect(banned.error).toBeNull();
    expect(banned.data).toMatchObject({ room_id: room.id, user_id: member.id, banned_by: moderator.id, reason: "spam links" });
    expect(await membershipsOf(room.id, member.id)).toEqual([]);

    // no way back in
    const insert = await member.client.from("memberships").insert({ room_id: room.id, user_id: member.id });
    expect(insert.error).toMatchObject({ code: "42501" });
    expect(insert.error!.message).toMatch(/^You were banned from this room until /);
    expect(moderationRefusal(insert.error, { timeZone: "UTC" })).toMatch(/^You were banned from this room until tomorrow at \d\d:\d\d\.$/);
    const viaFunction = await callJoinRoom(member.client, { room_id: room.id });
    expect(viaFunction).toMatchObject({ status: 403, body: { code: "banned" } });
    expect(Date.parse(String(viaFunction.body.until))).toBe(Date.parse(until));
    expect(await membershipsOf(room.id, member.id)).toEqual([]);

    // still a visitor: the posts, and their own ban and standing
    expect((await member.client.from("posts").select("title").eq("room_id", room.id)).data).toEqual([{ title: "Open to all" }]);
    expect((await member.client.from("bans").select("reason, expires_at").eq("room_id", room.id)).data).toEqual([
      { reason: "spam links", expires_at: expect.any(String) },
    ]);
    const standing = await roomStanding(member.client as never, room.id);
    expect(standing).toMatchObject({ banned: true, banReason: "spam links", bannedUntil: expect.any(String) });
    expect(banLine(standing, { timeZone: "UTC" })).toMatch(/^You were banned from this room until tomorrow at \d\d:\d\d\.$/);
    // others: the owner reads the room's bans, another person reads none
    const other = await person("ban-public-other");
    expect((await other.client.from("bans").select("user_id").eq("room_id", room.id)).data).toEqual([]);
    expect(await roomBans(owner.client as never, room.id)).toEqual([
      expect.objectContaining({ userId: member.id, byUsername: expect.any(String), reason: "spam links", expiresAt: expect.any(String) }),
    ]);
    expect(await roomBans(other.client as never, room.id)).toEqual([]);
    const log = await owner.client.from("moderation_log").select("action, actor_id, target_user_id, reason").eq("room_id", room.id);
    expect(log.data).toEqual([
      { action: "ban", actor_id: moderator.id, target_user_id: member.id, reason: expect.stringMatching(/^spam links \(until /) },
    ]);

    // unbanned, they join again
    expect((await owner.client.rpc("unban_member", { room_id: room.id, user_id: member.id })).error).toBeNull();
    expect((await callJoinRoom(member.client, { room_id: room.id })).status).toBe(201);
    expect((await owner.client.from("moderation_log").select("action").eq("room_id", room.id).eq("action", "unban")).data).toHaveLength(1);
  });

  test("an expired ban no longer keeps them out", async () => {
    const room = await createRoom(owner.client, "ban-expired");
    const member = await person("ban-expired-member");
    expect((await callJoinRoom(member.client, { room_id: room.id })).status).toBe(201);
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await owner.client.rpc("ban_member", { room_id: room.id, user_id: member.id, reason: "cool off", expires_at: soon })).error,
    ).toBeNull();
    expect((await member.client.from("memberships").insert({ room_id: room.id, user_id: member.id })).error).toMatchObject({
      code: "42501",
    });
    // time passes (the ban's end moved into the past, as the database owner)
    await adminQuery(
      "update public.bans set created_at = now() - interval '2 minutes', expires_at = now() - interval '1 second' where room_id = $1",
      [room.id],
    );
    expect((await member.client.from("memberships").insert({ room_id: room.id, user_id: member.id })).error).toBeNull();
  });
});

describe("a banned holder of a gated room's pass", () => {
  test("is refused by join-room with the same wallet, and the wallet moved to a second account admits that account neither", async () => {
    const room = await createRoom(owner.client, "ban-gated", erc721Gate);
    await addModerator(room.id);
    const holder = await person("ban-holder");
    const wallet = randomWallet();
    await mintErc721(wallet.address);
    expect((await linkWallet(holder.client, wallet)).status).toBe(201);
    const address = wallet.address.toLowerCase();
    wallets.push(address);
    expect((await callJoinRoom(holder.client, { room_id: room.id })).status).toBe(201);

    expect((await moderator.client.rpc("ban_member", { room_id: room.id, user_id: holder.id, reason: "ban evasion" })).error).toBeNull();
    expect(await membershipsOf(room.id, holder.id)).toEqual([]);
    // holding the pass, with the same wallet
    expect(await callJoinRoom(holder.client, { room_id: room.id })).toEqual({
      status: 403,
      body: { code: "banned", error: "You were banned from this room.", until: null },
    });
    // the banned person unlinks the wallet and links it to a second account, which asks to join
    expect((await holder.client.from("wallets").delete().eq("address", address).select("address")).data).toEqual([{ address }]);
    const second = await person("ban-holder-second");
    expect((await linkWallet(second.client, wallet)).status).toBe(201);
    expect(await callJoinRoom(second.client, { room_id: room.id })).toMatchObject({ status: 403, body: { code: "wallet_banned" } });
    expect(await membershipsOf(room.id, second.id)).toEqual([]);
    // nor by writing the membership directly, as the server would
    const direct = await admin
      .from("memberships")
      .insert({ room_id: room.id, user_id: second.id, verified_wallet: address, verified_at: new Date().toISOString() });
    expect(direct.error).toMatchObject({ code: "42501", details: "wallet" });

    // a pass of their own (a new wallet that never belonged to the banned account) lets the second account in
    const own = randomWallet();
    await mintErc721(own.address);
    expect((await linkWallet(second.client, own)).status).toBe(201);
    wallets.push(own.address.toLowerCase());
    const joined = await callJoinRoom(second.client, { room_id: room.id });
    expect(joined).toMatchObject({ status: 201, body: { membership: { verified_wallet: own.address.toLowerCase() } } });
  });
});

describe("a ban ends live access", () => {
  test("a banned member's sockets hear that the channels moved, then nothing; they cannot join the session channel again, and follow a public room only as a visitor", async () => {
    const room = await createRoom(owner.client, "ban-live");
    const member = await person("ban-live-member");
    expect((await callJoinRoom(member.client, { room_id: room.id })).status).toBe(201);
    const roomSocket = await join(member, roomTopic(room.id));
    const sessionSocket = await join(member, sessionTopic(room.id));
    expect([roomSocket.status, sessionSocket.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);

    expect((await owner.client.rpc("ban_member", { room_id: room.id, user_id: member.id, reason: "" })).error).toBeNull();
    await waitFor("both sockets are told", () => roomSocket.events().includes("access") && sessionSocket.events().includes("access"));
    expect(roomSocket.events()).toEqual(["memberships", "access"]);

    // the session goes on without them: nothing reaches their old sockets
    await adminQuery("insert into public.listening_sessions (room_id, started_by, host_id) values ($1, $2, $2)", [room.id, owner.id]);
    await post(room.id, "After the ban");
    const ownerSession = await join(owner, sessionTopic(room.id, 1));
    expect(ownerSession.status).toBe("SUBSCRIBED");
    await new Promise((r) => setTimeout(r, 800));
    expect(sessionSocket.events()).toEqual(["access"]);
    expect(roomSocket.events()).toEqual(["memberships", "access"]);
    expect((await join(member, sessionTopic(room.id, 1))).status).toBe("CHANNEL_ERROR");
    // the public room's own channel still admits them, as it admits any visitor
    expect((await join(member, roomTopic(room.id, 1))).status).toBe("SUBSCRIBED");
  });
});
