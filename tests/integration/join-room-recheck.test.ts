// Re-checking gated memberships (join-room's "recheck"), on the running stack's local chain. Time
// passing is simulated by moving the membership's verified_at back with the service role; tokens
// leave a fresh holder's wallet by a real transfer signed with its key.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { contracts } from "../../chain/deployment";
import { recheckMembership } from "../../lib/rooms/join";
import { freshMembership, gatedMembershipLifetimeMs, openPageRecheckEveryMs } from "../../lib/rooms/membership-freshness";
import { membershipRecheckAfterMs } from "../../lib/validation/join-room";
import { callJoinRoom, createRoom, membershipsOf, setVerifiedAgo } from "../helpers/rooms";
import { adminQuery } from "../helpers/stack";
import { erc721Balance, fundGas, mintErc721, transferErc721 } from "../helpers/tokens";
import { admin, linkWallet, randomWallet, signedInUser } from "../helpers/wallets";
import { generatePrivateKey } from "viem/accounts";

vi.setConfig({ testTimeout: 120_000 });

type User = Awaited<ReturnType<typeof signedInUser>>;
const users: User[] = [];
const linked: string[] = [];
const gate = {
  chain_id: 31337,
  contract_address: contracts.erc721.toLowerCase(),
  standard: "erc721" as const,
  token_id: null,
  min_balance: "1",
};
const overAnHour = membershipRecheckAfterMs + 60_000;

let owner: User;
const parking = randomWallet(); // where passes go when a holder gives theirs away

beforeAll(async () => {
  owner = await signedInUser("recheck-owner");
  users.push(owner);
}, 120_000);

afterAll(async () => {
  for (const user of users) await admin.auth.admin.deleteUser(user.id);
  if (linked.length) await admin.from("wallets").delete().in("address", linked);
});

/** A member of a new gated room, holding one fresh pass in a fresh wallet whose key the test has. */
async function passHolderMember(label: string) {
  const user = await signedInUser(label);
  users.push(user);
  const key = generatePrivateKey();
  const wallet = randomWallet(key);
  await fundGas(wallet.address);
  const tokenId = await mintErc721(wallet.address);
  expect((await linkWallet(user.client, wallet)).status).toBe(201);
  linked.push(wallet.address.toLowerCase());
  const room = await createRoom(owner.client, label, gate);
  expect((await callJoinRoom(user.client, { room_id: room.id })).status).toBe(201);
  return { user, key, wallet, tokenId, room };
}

describe("re-checking a member of a gated room", () => {
  test("after the pass is transferred away and an hour has passed, the membership lapses and the reason is returned", async () => {
    const { user, key, wallet, tokenId, room } = await passHolderMember("lapse");
    await transferErc721(key, parking.address, tokenId);
    expect(await erc721Balance(wallet.address)).toBe(0n);
    await setVerifiedAgo(admin, room.id, user.id, overAnHour);

    const result = await recheckMembership(user.client, room.id);
    expect(result).toEqual({
      ok: true,
      data: {
        status: "lapsed",
        reason: "You need at least 1 CUEPASS on Local chain to join. None of your linked wallets hold enough.",
        requirement: "At least 1 CUEPASS on Local chain",
      },
    });
    expect(await membershipsOf(room.id, user.id)).toEqual([]);
    // the member can no longer read the gated room's content (its member list)
    const { data } = await user.client.from("memberships").select("user_id").eq("room_id", room.id);
    expect(data).toEqual([]);
    // and a new join is refused with the same reason
    const again = await callJoinRoom(user.client, { room_id: room.id });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe("not_enough_tokens");
  });

  test("within the hour nothing is read or changed, even if the tokens are gone", async () => {
    const { user, key, tokenId, room } = await passHolderMember("fresh");
    const verifiedAt = await setVerifiedAgo(admin, room.id, user.id, membershipRecheckAfterMs - 5 * 60_000);
    await transferErc721(key, parking.address, tokenId);
    const result = await recheckMembership(user.client, room.id);
    expect(result).toMatchObject({ ok: true, data: { status: "fresh", membership: { role: "member" } } });
    const [row] = await membershipsOf(room.id, user.id);
    expect(row.verified_at!.toISOString()).toBe(new Date(verifiedAt).toISOString());
  });

  test("still holding after an hour: verified_at and the wallet are refreshed", async () => {
    const { user, wallet, room } = await passHolderMember("renew");
    await setVerifiedAgo(admin, room.id, user.id, overAnHour);
    const result = await recheckMembership(user.client, room.id);
    expect(result).toMatchObject({ ok: true, data: { status: "renewed", membership: { verified_wallet: wallet.address.toLowerCase() } } });
    const [row] = await membershipsOf(room.id, user.id);
    expect(Date.now() - row.verified_at!.getTime()).toBeLessThan(60_000);
  });

  test("a membership never checked (verified_at null) is checked", async () => {
    const { user, key, tokenId, room } = await passHolderMember("never");
    const { error } = await admin.from("memberships").update({ verified_at: null }).eq("room_id", room.id).eq("user_id", user.id);
    expect(error).toBeNull();
    await transferErc721(key, parking.address, tokenId);
    const result = await recheckMembership(user.client, room.id);
    expect(result).toMatchObject({ ok: true, data: { status: "lapsed" } });
    expect(await membershipsOf(room.id, user.id)).toEqual([]);
  });

  test("owner and moderators are not re-checked, whatever they hold", async () => {
    const { user, key, tokenId, room } = await passHolderMember("moderator");
    const promoted = await owner.client
      .from("memberships")
      .update({ role: "moderator" })
      .eq("room_id", room.id)
      .eq("user_id", user.id)
      .select("role");
    expect(promoted.data).toEqual([{ role: "moderator" }]);
    await transferErc721(key, parking.address, tokenId);
    await setVerifiedAgo(admin, room.id, user.id, overAnHour);
    expect(await recheckMembership(user.client, room.id)).toMatchObject({
      ok: true,
      data: { status: "exempt", membership: { role: "moderator" } },
    });
    expect(await recheckMembership(owner.client, room.id)).toMatchObject({
      ok: true,
      data: { status: "exempt", membership: { role: "owner" } },
    });
    expect(await membershipsOf(room.id, user.id)).toHaveLength(1);
  });

  test("someone who is not a member: nothing to check; a deleted room: 404", async () => {
    const room = await createRoom(owner.client, "stranger", gate);
    const stranger = await signedInUser("stranger");
    users.push(stranger);
    expect(await recheckMembership(stranger.client, room.id)).toEqual({ ok: true, data: { status: "not_member" } });
    await owner.client.from("rooms").delete().eq("id", room.id);
    expect(await recheckMembership(stranger.client, room.id)).toMatchObject({ ok: false, error: { code: "room_not_found" } });
  });
});

describe("the database counts a gated membership only while its check is fresh; pages re-check first", () => {
  const postIn = async (roomId: string) => {
    const { error } = await owner.client
      .from("posts")
      .insert({ room_id: roomId, author_id: owner.id, title: "For holders", media_kind: "embed", media_url: "https://vimeo.com/76979871" });
    expect(error).toBeNull();
  };
  const postsSeenBy = async (client: User["client"], roomId: string) =>
    (await client.from("posts").select("title").eq("room_id", roomId)).data ?? [];

  test("the app's lifetime of a check is the database's", async () => {
    const [{ ms }] = await adminQuery<{ ms: number }>(
      "select (extract(epoch from private.gated_membership_lifetime()) * 1000)::float8 as ms",
    );
    expect(ms).toBe(gatedMembershipLifetimeMs);
    expect(gatedMembershipLifetimeMs - membershipRecheckAfterMs).toBeGreaterThan(openPageRecheckEveryMs);
  });

  test("a holder whose check went stale reads nothing through REST until a page re-checks; then everything is back", async () => {
    const { user, room } = await passHolderMember("stale-holder");
    await postIn(room.id);
    expect(await postsSeenBy(user.client, room.id)).toHaveLength(1);
    // within the grace after the hour: still in
    await setVerifiedAgo(admin, room.id, user.id, gatedMembershipLifetimeMs - 5 * 60_000);
    expect(await postsSeenBy(user.client, room.id)).toHaveLength(1);
    // past it: the posts, the member list and the media are closed to them
    await setVerifiedAgo(admin, room.id, user.id, gatedMembershipLifetimeMs + 60_000);
    expect(await postsSeenBy(user.client, room.id)).toEqual([]);
    expect((await user.client.from("memberships").select("user_id").eq("room_id", room.id)).data).toEqual([{ user_id: user.id }]);
    const refused = await user.client
      .from("posts")
      .insert({ room_id: room.id, author_id: user.id, title: "late", media_kind: "embed", media_url: "https://vimeo.com/1" });
    expect(refused.error?.code).toBe("42501");

    const [membership] = await membershipsOf(room.id, user.id);
    const fresh = await freshMembership(
      user.client,
      { id: room.id, visibility: "gated" },
      { role: "member", verified_at: membership.verified_at!.toISOString() },
    );
    expect(fresh).toMatchObject({ membership: { role: "member" }, notice: null, lapsed: false });
    expect(await postsSeenBy(user.client, room.id)).toHaveLength(1);
  });

  test("a member who sold the pass is told why at their next page, and the room is closed to them", async () => {
    const { user, key, tokenId, room } = await passHolderMember("seller");
    await postIn(room.id);
    await transferErc721(key, parking.address, tokenId);
    const verifiedAt = await setVerifiedAgo(admin, room.id, user.id, overAnHour);
    const fresh = await freshMembership(user.client, { id: room.id, visibility: "gated" }, { role: "member", verified_at: verifiedAt });
    expect(fresh).toEqual({
      membership: null,
      lapsed: true,
      notice:
        "You are no longer a member of this room. You need at least 1 CUEPASS on Local chain to join. None of your linked wallets hold enough.",
    });
    expect(await postsSeenBy(user.client, room.id)).toEqual([]);
  });

  test("a check under an hour old is not repeated by a page (no call, nothing changes)", async () => {
    const { user, key, tokenId, room } = await passHolderMember("recent");
    await transferErc721(key, parking.address, tokenId);
    const verifiedAt = await setVerifiedAgo(admin, room.id, user.id, 10 * 60_000);
    const fresh = await freshMembership(user.client, { id: room.id, visibility: "gated" }, { role: "member", verified_at: verifiedAt });
    expect(fresh).toMatchObject({ membership: { role: "member" }, notice: null });
    expect(await membershipsOf(room.id, user.id)).toHaveLength(1);
  });
});
