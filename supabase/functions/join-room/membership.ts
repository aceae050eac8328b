// Joining a room and re-checking a gated membership: the rules, with the chain and the database
// behind chain.ts and store.ts. Each returns the HTTP answer to send.
import { json } from "../_shared/cors.ts";
import { findChain } from "../../../lib/chain/chains.ts";
import { noWalletText, notEnoughTokensText, requirementText } from "../../../lib/rooms/gate-text.ts";
import { type JoinRoomErrorCode, joinRoomMessages, membershipRecheckAfterMs } from "../../../lib/validation/join-room.ts";
import { ChainUnreachable, chainName, chains, type Gate, GateBroken, GateReader, thirdwebClient } from "./chain.ts";
import * as store from "./store.ts";

export const fail = (status: number, code: JoinRoomErrorCode, error: string, requirement?: string) =>
  json(requirement ? { code, error, requirement } : { code, error }, status);

const roomNotFound = () => fail(404, "room_not_found", joinRoomMessages.roomNotFound);

/** "27 Nov 2026, 21:40 UTC": the function does not know the reader's time zone (the app words `until`). */
function utcWords(iso: string): string {
  const at = new Date(iso);
  const month = at.toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getUTCDate()} ${month} ${at.getUTCFullYear()}, ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

const banned = (until: string | null) =>
  json({ code: "banned", error: joinRoomMessages.banned(until ? utcWords(until) : null), until }, 403);
const walletBanned = () => fail(403, "wallet_banned", joinRoomMessages.walletBanned);

/** A membership the database would not add: the room went, or a ban holds. */
function notAdded(added: Exclude<store.AddResult, { ok: true }>): Response {
  if (added.reason === "banned") return banned(added.until);
  if (added.reason === "wallet_banned") return walletBanned();
  return roomNotFound();
}

/** A reader for the gate's chain, or the answer to send when this site cannot read that chain. */
function gateReader(gate: Gate): { ok: true; reader: GateReader } | { ok: false; answer: Response } {
  const chain = findChain(chains, gate.chain_id);
  if (!chain) return { ok: false, answer: fail(503, "chain_unavailable", joinRoomMessages.chainUnsupported(chainName(gate.chain_id))) };
  const thirdweb = thirdwebClient();
  if (!thirdweb.ok) return { ok: false, answer: fail(503, "chain_unavailable", thirdweb.error) };
  return { ok: true, reader: new GateReader(thirdweb.client, chain, gate) };
}

/** The answer for a chain read that failed; anything else is rethrown. */
function chainFailure(error: unknown): Response {
  if (error instanceof ChainUnreachable) {
    console.error(error.message);
    return fail(503, "chain_unreachable", joinRoomMessages.unreachable(error.chain.name));
  }
  if (error instanceof GateBroken) {
    console.error(error.message);
    return fail(502, "gate_broken", joinRoomMessages.gateBroken(error.chain.name));
  }
  throw error;
}

interface Verdict {
  /** The wallet that holds enough, or null. */
  wallet: string | null;
  /** Why not, when no wallet qualifies. */
  refusal?: { code: "no_wallet" | "not_enough_tokens"; reason: string; requirement: string };
}

async function checkWallets(reader: GateReader, userId: string, barred: string[]): Promise<Verdict> {
  // A wallet a ban from this room holds against admits nobody: it is not read at all.
  const wallets = (await store.linkedWallets(userId)).filter((address) => !barred.includes(address.toLowerCase()));
  const wallet = wallets.length ? await reader.qualifyingWallet(wallets) : null;
  if (wallet) return { wallet };
  const facts = await reader.facts();
  const reason = wallets.length ? notEnoughTokensText(facts) : noWalletText(facts);
  return {
    wallet: null,
    refusal: { code: wallets.length ? "not_enough_tokens" : "no_wallet", reason, requirement: requirementText(facts) },
  };
}

export async function join(userId: string, authorization: string, roomId: string): Promise<Response> {
  const room = await store.findRoom(roomId);
  if (!room) return roomNotFound();
  const existing = await store.findMembership(roomId, userId);
  if (existing) return json({ membership: existing, already_member: true });
  const ban = await store.banCheck(roomId, userId);
  if (ban.banned) return banned(ban.bannedUntil);

  if (room.visibility === "public" || !room.gate) {
    // a public room: the caller joins as themself, under the room's policies
    const added = await store.addMembership(store.asCaller(authorization), { room_id: roomId, user_id: userId });
    if (!added.ok) return notAdded(added);
    return json({ membership: added.membership, already_member: !added.created }, added.created ? 201 : 200);
  }

  const ready = gateReader(room.gate);
  if (!ready.ok) return ready.answer;
  const linked = await store.linkedWallets(userId);
  if (linked.length > 0 && linked.every((address) => ban.barredWallets.includes(address.toLowerCase()))) return walletBanned();
  let verdict: Verdict;
  try {
    verdict = await checkWallets(ready.reader, userId, ban.barredWallets);
  } catch (error) {
    return chainFailure(error);
  }
  if (!verdict.wallet) return fail(403, verdict.refusal!.code, verdict.refusal!.reason, verdict.refusal!.requirement);

  const added = await store.addMembership(store.db, {
    room_id: roomId,
    user_id: userId,
    verified_wallet: verdict.wallet,
    verified_at: new Date().toISOString(),
  });
  if (!added.ok) return notAdded(added);
  return json({ membership: added.membership, already_member: !added.created }, added.created ? 201 : 200);
}

export async function recheck(userId: string, roomId: string, now = Date.now()): Promise<Response> {
  const room = await store.findRoom(roomId);
  if (!room) return roomNotFound();
  const membership = await store.findMembership(roomId, userId);
  if (!membership) return json({ status: "not_member" });
  // owners and moderators keep their place whatever they hold; a public room has nothing to check
  if (membership.role !== "member" || room.visibility !== "gated" || !room.gate) return json({ status: "exempt", membership });
  const checkedAt = membership.verified_at ? new Date(membership.verified_at).getTime() : 0;
  if (now - checkedAt < membershipRecheckAfterMs) return json({ status: "fresh", membership });

  const ready = gateReader(room.gate);
  if (!ready.ok) return ready.answer;
  const { barredWallets } = await store.banCheck(roomId, userId);
  let verdict: Verdict;
  try {
    verdict = await checkWallets(ready.reader, userId, barredWallets);
  } catch (error) {
    return chainFailure(error); // the chain did not answer: the membership stays as it was
  }
  if (verdict.wallet) {
    const renewed = await store.renewVerification(roomId, userId, verdict.wallet);
    return renewed ? json({ status: "renewed", membership: renewed }) : json({ status: "not_member" });
  }
  await store.removeMembership(roomId, userId);
  return json({ status: "lapsed", reason: verdict.refusal!.reason, requirement: verdict.refusal!.requirement });
}
