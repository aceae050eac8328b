// The join-room function on the running stack against its local chain (real thirdweb reads of
// real token contracts, no mocked RPC), called with supabase-js as people would call it. Each
// holder is a fresh wallet minted its tokens here, linked by signature through link-wallet.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { contracts } from "../../chain/deployment";
import { joinRoom } from "../../lib/rooms/join";
import { joinRoomMessages } from "../../lib/validation/join-room";
import { callJoinRoom, createRoom, membershipsOf } from "../helpers/rooms";
import { anonClient } from "../helpers/stack";
import { cue, mintErc1155, mintErc20, mintErc721 } from "../helpers/tokens";
import { admin, linkWallet, randomWallet, signedInUser } from "../helpers/wallets";

// the first call boots the function (and on a fresh clone fetches its packages)
vi.setConfig({ testTimeout: 120_000 });

type User = Awaited<ReturnType<typeof signedInUser>>;
const users: User[] = [];
const wallets: string[] = [];

async function person(label: string): Promise<User> {
  const user = await signedInUser(label);
  users.push(user);
  return user;
}

/** A person with one linked wallet (a fresh key); `fill` gives that wallet tokens first. */
async function personWithWallet(label: string, fill?: (address: `0x${string}`) => Promise<unknown>) {
  const user = await person(label);
  const wallet = randomWallet();
  if (fill) await fill(wallet.address);
  const linked = await linkWallet(user.client, wallet);
  if (linked.status !== 201) throw new Error(`could not link: ${JSON.stringify(linked)}`);
  wallets.push(wallet.address.toLowerCase());
  return { ...user, wallet };
}

const erc20Gate = (minWhole = 1n) => ({
  chain_id: 31337,
  contract_address: contracts.erc20.toLowerCase(),
  standard: "erc20" as const,
  token_id: null,
  min_balance: cue(minWhole).toString(),
});
const erc721Gate = {
  chain_id: 31337,
  contract_address: contracts.erc721.toLowerCase(),
  standard: "erc721" as const,
  token_id: null,
  min_balance: "1",
};
const erc1155Gate = (id: bigint, min: bigint) => ({
  chain_id: 31337,
  contract_address: contracts.erc1155.toLowerCase(),
  standard: "erc1155" as const,
  token_id: id.toString(),
  min_balance: min.toString(),
});

let owner: User;

beforeAll(async () => {
  owner = await person("room-owner");
}, 120_000);

afterAll(async () => {
  for (const user of users) await admin.auth.admin.deleteUser(user.id);
  if (wallets.length) await admin.from("wallets").delete().in("address", wallets);
});

describe("a holder joins a gated room", () => {
  test("ERC-20: a wallet holding at least the minimum joins; the membership records the wallet and when", async () => {
    const room = await createRoom(owner.client, "cue", erc20Gate(1n));
    const holder = await personWithWallet("cue-holder", (address) => mintErc20(address, cue(2n)));
    const answer = await callJoinRoom(holder.client, { room_id: room.id });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      already_member: false,
      membership: { room_id: room.id, user_id: holder.id, role: "member", verified_wallet: holder.wallet.address.toLowerCase() },
    });
    const [row] = await membershipsOf(room.id, holder.id);
    expect(row).toMatchObject({ role: "member", verified_wallet: holder.wallet.address.toLowerCase() });
    expect(Date.now() - row.verified_at!.getTime()).toBeLessThan(60_000);
    // the room's content is now readable to them: they see the member list of the gated room
    const { data } = await holder.client.from("memberships").select("user_id").eq("room_id", room.id);
    expect(data?.map((m) => m.user_id).sort()).toEqual([owner.id, holder.id].sort());
    const { data: counted } = await anonClient().from("rooms").select("member_count").eq("id", room.id).single();
    expect(counted?.member_count).toBe(2);
  });

  test("ERC-721: holding a pass is enough; joining again answers ok without a second membership", async () => {
    const room = await createRoom(owner.client, "pass", erc721Gate);
    const holder = await personWithWallet("pass-holder", (address) => mintErc721(address));
    expect((await callJoinRoom(holder.client, { room_id: room.id })).status).toBe(201);
    const again = await callJoinRoom(holder.client, { room_id: room.id });
    expect(again.status).toBe(200);
    expect(again.body.already_member).toBe(true);
    expect(await membershipsOf(room.id, holder.id)).toHaveLength(1);
  });

  test("ERC-1155: the balance of the gate's token id counts, not other ids", async () => {
    const room = await createRoom(owner.client, "items", erc1155Gate(7n, 2n));
    const holder = await personWithWallet("items-holder", (address) => mintErc1155(address, 7n, 3n));
    const wrongId = await personWithWallet("items-wrong-id", (address) => mintErc1155(address, 1n, 5n));
    expect((await callJoinRoom(holder.client, { room_id: room.id })).status).toBe(201);
    const refused = await callJoinRoom(wrongId.client, { room_id: room.id });
    expect(refused).toEqual({
      status: 403,
      body: {
        code: "not_enough_tokens",
        error: "You need at least 2 of token #7 of 0x0165…Eb8F on Local chain to join. None of your linked wallets hold enough.",
        requirement: "At least 2 of token #7 of 0x0165…Eb8F on Local chain",
      },
    });
    expect(await membershipsOf(room.id, wrongId.id)).toEqual([]);
  });

  test("one qualifying wallet among several is enough, and it is the one recorded", async () => {
    const room = await createRoom(owner.client, "many", erc721Gate);
    const user = await personWithWallet("many-wallets");
    const second = randomWallet();
    await mintErc721(second.address);
    expect((await linkWallet(user.client, second)).status).toBe(201);
    wallets.push(second.address.toLowerCase());
    const answer = await joinRoom(user.client, room.id);
    expect(answer).toMatchObject({
      ok: true,
      data: { already_member: false, membership: { verified_wallet: second.address.toLowerCase() } },
    });
  });

  test("the app-side caller returns the membership as a typed result", async () => {
    const room = await createRoom(owner.client, "typed", erc20Gate(1n));
    const holder = await personWithWallet("typed-holder", (address) => mintErc20(address, cue(1n)));
    const result = await joinRoom(holder.client, room.id);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.data.membership).toMatchObject({ role: "member", user_id: holder.id });
  });
});

describe("one token, one account", () => {
  test("a holder who unlinks the pass's wallet is out of the room at once; the account that links it next gets in; the first, without it, is refused", async () => {
    const room = await createRoom(owner.client, "one-pass", erc721Gate);
    const first = await personWithWallet("pass-first", (address) => mintErc721(address));
    expect((await callJoinRoom(first.client, { room_id: room.id })).status).toBe(201);
    const post = await owner.client
      .from("posts")
      .insert({
        room_id: room.id,
        author_id: owner.id,
        title: "Members only",
        media_kind: "embed",
        media_url: "https://media.cuepoint-files.com/members.wav",
      })
      .select("id")
      .single();
    expect((await first.client.from("posts").select("id").eq("room_id", room.id)).data).toEqual([{ id: post.data!.id }]);

    // The first account unlinks the wallet (through REST, as the account page does): out at once.
    const address = first.wallet.address.toLowerCase();
    expect((await first.client.from("wallets").delete().eq("address", address).select("address")).data).toEqual([{ address }]);
    expect(await membershipsOf(room.id, first.id)).toEqual([]);
    expect((await first.client.from("posts").select("id").eq("room_id", room.id)).data).toEqual([]);

    // A second account links the same wallet and is let in by it.
    const second = await person("pass-second");
    expect((await linkWallet(second.client, first.wallet)).status).toBe(201);
    expect((await callJoinRoom(second.client, { room_id: room.id })).status).toBe(201);
    expect((await membershipsOf(room.id, second.id))[0]).toMatchObject({ role: "member", verified_wallet: address });

    // The first account, without the wallet, is refused.
    const refused = await callJoinRoom(first.client, { room_id: room.id });
    expect(refused).toMatchObject({ status: 403, body: { code: "no_wallet" } });
    expect(await membershipsOf(room.id, first.id)).toEqual([]);
    await owner.client.from("posts").delete().eq("id", post.data!.id);
  });
});

describe("refusals say what is needed, in human units", () => {
  test("a non-holder gets PRODUCT.md's message with the symbol, the amount in whole tokens and the chain", async () => {
    const room = await createRoom(owner.client, "refuse", erc20Gate(1n));
    const outsider = await personWithWallet("no-cue");
    const result = await joinRoom(outsider.client, room.id);
    expect(result).toEqual({
      ok: false,
      error: {
        code: "not_enough_tokens",
        error: "You need at least 1 CUE on Local chain to join. None of your linked wallets hold enough.",
        requirement: "At least 1 CUE on Local chain",
      },
    });
    expect(await membershipsOf(room.id, outsider.id)).toEqual([]);
  });

  test("a minimum above the wallet's holdings refuses, naming the minimum (5 CUE held, 10 needed)", async () => {
    const room = await createRoom(owner.client, "ten", erc20Gate(10n));
    const small = await personWithWallet("five-cue", (address) => mintErc20(address, cue(5n)));
    const answer = await callJoinRoom(small.client, { room_id: room.id });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe("You need at least 10 CUE on Local chain to join. None of your linked wallets hold enough.");
    expect(await membershipsOf(room.id, small.id)).toEqual([]);
  });

  test("an ERC-721 gate names the collection's symbol", async () => {
    const room = await createRoom(owner.client, "two-passes", { ...erc721Gate, min_balance: "2" });
    const holder = await personWithWallet("one-pass", (address) => mintErc721(address));
    const answer = await callJoinRoom(holder.client, { room_id: room.id });
    expect(answer.body).toEqual({
      code: "not_enough_tokens",
      error: "You need at least 2 CUEPASS on Local chain to join. None of your linked wallets hold enough.",
      requirement: "At least 2 CUEPASS on Local chain",
    });
  });

  test("no linked wallet: says so, and that a wallet is linked on the account page", async () => {
    const room = await createRoom(owner.client, "walletless", erc20Gate(1n));
    const user = await person("walletless");
    const answer = await callJoinRoom(user.client, { room_id: room.id });
    expect(answer).toEqual({
      status: 403,
      body: {
        code: "no_wallet",
        error: "You need at least 1 CUE on Local chain to join. Link a wallet that holds it on your account page, then join again.",
        requirement: "At least 1 CUE on Local chain",
      },
    });
    expect(await membershipsOf(room.id, user.id)).toEqual([]);
  });

  test("a user still cannot insert their own membership of a gated room: only the function does", async () => {
    const room = await createRoom(owner.client, "direct", erc721Gate);
    const user = await person("direct-insert");
    const { error } = await user.client.from("memberships").insert({ room_id: room.id, user_id: user.id });
    expect(error?.code).toBe("42501");
    expect(await membershipsOf(room.id, user.id)).toEqual([]);
  });
});

describe("rooms that are not (or no longer) there, and bad requests", () => {
  test("a deleted room: 404 with a clear message, nothing written", async () => {
    const room = await createRoom(owner.client, "deleted", erc721Gate);
    const holder = await personWithWallet("deleted-holder", (address) => mintErc721(address));
    const { error } = await owner.client.from("rooms").delete().eq("id", room.id);
    expect(error).toBeNull();
    expect(await callJoinRoom(holder.client, { room_id: room.id })).toEqual({
      status: 404,
      body: { code: "room_not_found", error: joinRoomMessages.roomNotFound },
    });
    expect(await membershipsOf(room.id, holder.id)).toEqual([]);
    expect(await joinRoom(holder.client, crypto.randomUUID())).toEqual({
      ok: false,
      error: { code: "room_not_found", error: joinRoomMessages.roomNotFound },
    });
  });

  test.each([
    {},
    { room_id: "not-a-uuid" },
    { room_id: crypto.randomUUID(), action: "leave" },
    { room_id: crypto.randomUUID(), extra: 1 },
    [],
  ])("a malformed body %j is a 400 that says what to send", async (body) => {
    const user = users[0];
    expect(await callJoinRoom(user.client, body)).toEqual({ status: 400, body: { code: "malformed", error: joinRoomMessages.malformed } });
  });

  test("signed out: 401", async () => {
    const room = await createRoom(owner.client, "anon", null);
    const answer = await callJoinRoom(anonClient(), { room_id: room.id });
    expect(answer.status).toBe(401);
  });
});

describe("a gate whose contract is no token", () => {
  test("a balance read the contract cannot answer (the ENS registry as an ERC-721): 502 asking the owner to check the gate, no membership", async () => {
    const room = await createRoom(owner.client, "broken", { ...erc721Gate, contract_address: contracts.ensRegistry.toLowerCase() });
    const user = await personWithWallet("broken-gate");
    const answer = await callJoinRoom(user.client, { room_id: room.id });
    expect(answer).toEqual({ status: 502, body: { code: "gate_broken", error: joinRoomMessages.gateBroken("Local chain") } });
    expect(await membershipsOf(room.id, user.id)).toEqual([]);
  });
});

describe("public rooms", () => {
  test("anyone signed in joins at once, with no wallet and no chain read", async () => {
    const room = await createRoom(owner.client, "open", null);
    const user = await person("open-joiner");
    const answer = await callJoinRoom(user.client, { room_id: room.id });
    expect(answer.status).toBe(201);
    expect(answer.body.membership).toMatchObject({ role: "member", verified_wallet: null, verified_at: null });
    expect(await membershipsOf(room.id, user.id)).toHaveLength(1);
  });

  test("the owner joining their own room is already a member, as owner", async () => {
    const room = await createRoom(owner.client, "own", erc721Gate);
    const answer = await joinRoom(owner.client, room.id);
    expect(answer).toMatchObject({ ok: true, data: { already_member: true, membership: { role: "owner" } } });
  });
});

describe("concurrent joins", () => {
  test("five joins at once of a gated room make one membership, and the count moves by one", async () => {
    const room = await createRoom(owner.client, "race", erc721Gate);
    const holder = await personWithWallet("racer", (address) => mintErc721(address));
    const answers = await Promise.all(Array.from({ length: 5 }, () => callJoinRoom(holder.client, { room_id: room.id })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200 && a.body.already_member === true)).toHaveLength(4);
    expect(await membershipsOf(room.id, holder.id)).toHaveLength(1);
    const { data } = await anonClient().from("rooms").select("member_count").eq("id", room.id).single();
    expect(data?.member_count).toBe(2);
  });

  test("three joins at once of a public room make one membership", async () => {
    const room = await createRoom(owner.client, "race-open", null);
    const user = await person("open-racer");
    const answers = await Promise.all(Array.from({ length: 3 }, () => callJoinRoom(user.client, { room_id: room.id })));
    for (const answer of answers) expect([200, 201]).toContain(answer.status);
    expect(await membershipsOf(room.id, user.id)).toHaveLength(1);
  });
});
