// When the gate's chain RPC does not answer, join-room lets nobody in and re-checks remove nobody,
// and each says why. The project's join-room function runs in a private Functions endpoint (same
// database) whose chain RPC points at a port nobody listens on; the stack's chain keeps running.
import net, { type AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { contracts } from "../../chain/deployment";
import { serveFunctions, type StandaloneFunctions } from "@cuepoint/stack/functions";
import { joinRoom, recheckMembership } from "../../lib/rooms/join";
import { joinRoomMessages, membershipRecheckAfterMs } from "../../lib/validation/join-room";
import { callJoinRoom, createRoom, membershipsOf, setVerifiedAgo } from "../helpers/rooms";
import { anonKey, config } from "../helpers/stack";
import { mintErc721 } from "../helpers/tokens";
import { admin, linkWallet, randomWallet, signedInUser } from "../helpers/wallets";

vi.setConfig({ testTimeout: 120_000 });

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const gate = {
  chain_id: 31337,
  contract_address: contracts.erc721.toLowerCase(),
  standard: "erc721" as const,
  token_id: null,
  min_balance: "1",
};
const unreachable = "We couldn't reach Local chain to check your tokens, so nothing changed. Try again in a minute.";

let functions: StandaloneFunctions;
let silentFunctions: StandaloneFunctions;
let noLocalChainFunctions: StandaloneFunctions;
// an RPC that accepts connections and never answers: reads time out
const held = new Set<net.Socket>();
const silentRpc = net.createServer((socket) => held.add(socket));
let owner: Awaited<ReturnType<typeof signedInUser>>;
let holder: Awaited<ReturnType<typeof signedInUser>>;
const wallet = randomWallet();

/** supabase-js for the holder, but talking to the endpoint whose chain is down. */
function duringOutage(user: typeof holder, endpoint = functions) {
  return createClient(endpoint.url, anonKey, { accessToken: async () => (await user.client.auth.getSession()).data.session!.access_token });
}

beforeAll(async () => {
  functions = await serveFunctions(config, { CHAIN_RPC_31337: `http://127.0.0.1:${await closedPort()}` });
  await new Promise<void>((resolve) => silentRpc.listen(0, "127.0.0.1", resolve));
  silentFunctions = await serveFunctions(config, { CHAIN_RPC_31337: `http://127.0.0.1:${(silentRpc.address() as AddressInfo).port}` });
  // as on a hosted project: the local chain is not one this deployment reads
  noLocalChainFunctions = await serveFunctions(config, { CHAIN_RPC_31337: "" });
  [owner, holder] = await Promise.all([signedInUser("outage-owner"), signedInUser("outage-holder")]);
  await mintErc721(wallet.address);
  expect((await linkWallet(holder.client, wallet)).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await functions?.close();
  await silentFunctions?.close();
  await noLocalChainFunctions?.close();
  for (const socket of held) socket.destroy();
  silentRpc.close();
  for (const user of [owner, holder]) if (user) await admin.auth.admin.deleteUser(user.id);
  await admin.from("wallets").delete().eq("address", wallet.address.toLowerCase());
});

test("joining a gated room while its chain is unreachable: 503 naming the chain, no membership", async () => {
  const room = await createRoom(owner.client, "outage", gate);
  const answer = await callJoinRoom(duringOutage(holder), { room_id: room.id });
  expect(answer).toEqual({ status: 503, body: { code: "chain_unreachable", error: unreachable } });
  expect(await membershipsOf(room.id, holder.id)).toEqual([]);
  // the same person, with the chain up, is let in
  expect(await joinRoom(holder.client, room.id)).toMatchObject({ ok: true, data: { already_member: false } });
});

test("an RPC that never answers: the join times out with the same answer, no membership", async () => {
  const room = await createRoom(owner.client, "outage-silent", gate);
  const answer = await callJoinRoom(duringOutage(holder, silentFunctions), { room_id: room.id });
  expect(answer).toEqual({ status: 503, body: { code: "chain_unreachable", error: unreachable } });
  expect(await membershipsOf(room.id, holder.id)).toEqual([]);
});

test("a gate on a chain this deployment does not read: 503 saying so, no membership", async () => {
  const room = await createRoom(owner.client, "outage-unread", gate);
  const answer = await callJoinRoom(duringOutage(holder, noLocalChainFunctions), { room_id: room.id });
  expect(answer).toEqual({ status: 503, body: { code: "chain_unavailable", error: joinRoomMessages.chainUnsupported("Local chain") } });
  expect(await membershipsOf(room.id, holder.id)).toEqual([]);
});

test("a re-check while the chain is unreachable keeps the membership and says why nothing was checked", async () => {
  const room = await createRoom(owner.client, "outage-recheck", gate);
  expect((await joinRoom(holder.client, room.id)).ok).toBe(true);
  const verifiedAt = await setVerifiedAgo(admin, room.id, holder.id, membershipRecheckAfterMs + 60_000);
  const result = await recheckMembership(duringOutage(holder), room.id);
  expect(result).toEqual({ ok: false, error: { code: "chain_unreachable", error: unreachable } });
  const [row] = await membershipsOf(room.id, holder.id);
  expect(row.verified_at!.toISOString()).toBe(new Date(verifiedAt).toISOString());
});

test("a public room needs no chain: joining works during the outage", async () => {
  const room = await createRoom(owner.client, "outage-open", null);
  expect((await callJoinRoom(duringOutage(holder), { room_id: room.id })).status).toBe(201);
});
