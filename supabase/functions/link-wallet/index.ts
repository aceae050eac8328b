// link-wallet: proves a wallet belongs to the caller and records it.
//   POST {"action":"nonce"}               → a single-use nonce for this user, valid 10 minutes
//   POST {"message","signature"}          → checks the signed EIP-4361 message, links the wallet
//                                           (lowercase address) with its ENS name and avatar
//   POST {"action":"refresh"}             → looks up again the caller's names older than a day
// Unlinking needs no function: the owner deletes the row (RLS allows exactly that).
import { callerClaims } from "../_shared/auth.ts";
import { corsHeaders, json } from "../_shared/cors.ts";
import { findChain } from "../../../lib/chain/chains.ts";
import { linkWalletBodySchema, linkWalletMessages, maxWalletsPerAccount } from "../../../lib/validation/wallet.ts";
import { checkSiwe, parseSiwe } from "../../../lib/wallets/siwe.ts";
import { ChainUnreachable, chains, lookUpEns, signatureIsFrom, thirdwebClient } from "./chain.ts";
import * as store from "./store.ts";

const siteUrl = Deno.env.get("SITE_URL") || "http://localhost:3000";

const fail = (status: number, code: string, error: string) => json({ code, error }, status);

function unreachable(error: ChainUnreachable, what: string): Response {
  console.error(error.message);
  return fail(
    503,
    "chain_unreachable",
    `We couldn't reach ${error.chain.name} to ${what}, so the wallet was not linked. Try again in a minute.`,
  );
}

async function link(userId: string, message: string, signature: `0x${string}`): Promise<Response> {
  const fields = parseSiwe(message);
  if (!fields) return fail(400, "unreadable_message", linkWalletMessages.unreadable);
  const checked = checkSiwe(fields, { siteUrl, now: new Date(), chains });
  if (!checked.ok) return fail(400, checked.code, checked.error);

  const nonce = await store.findNonce(fields.nonce);
  if (!nonce) return fail(400, "unknown_nonce", linkWalletMessages.unknownNonce);
  if (nonce.user_id !== userId) return fail(403, "other_users_nonce", linkWalletMessages.otherUsersNonce);
  if (nonce.used_at) return fail(409, "used_nonce", linkWalletMessages.usedNonce);
  if (new Date(nonce.expires_at).getTime() <= Date.now()) return fail(400, "expired", linkWalletMessages.expired);

  const chain = thirdwebClient();
  if (!chain.ok) return fail(503, "chain_unavailable", chain.error);
  const messageChain = findChain(chains, fields.chainId)!;
  try {
    if (!(await signatureIsFrom(chain.client, messageChain, { message, signature, address: fields.address }))) {
      return fail(400, "bad_signature", linkWalletMessages.badSignature);
    }
  } catch (error) {
    if (error instanceof ChainUnreachable) return unreachable(error, "check this wallet's signature");
    throw error;
  }
  if (!(await store.consumeNonce(fields.nonce, userId))) return fail(409, "used_nonce", linkWalletMessages.usedNonce);

  const address = fields.address.toLowerCase();
  const existing = await store.findWallet(address);
  if (existing && existing.user_id !== userId) return fail(409, "already_linked", linkWalletMessages.alreadyLinkedElsewhere);
  if (!existing && (await store.walletCount(userId)) >= maxWalletsPerAccount) return fail(422, "limit", linkWalletMessages.limit);

  let ens;
  try {
    ens = await lookUpEns(chain.client, fields.address);
  } catch (error) {
    if (error instanceof ChainUnreachable) return unreachable(error, "look up this wallet's ENS name");
    throw error;
  }
  if (existing) return json({ wallet: await store.updateEns(address, ens), already_linked: true });
  const inserted = await store.insertWallet({ address, user_id: userId, ...ens, ens_checked_at: new Date().toISOString() });
  if (!inserted.ok) {
    return inserted.reason === "taken"
      ? fail(409, "already_linked", linkWalletMessages.alreadyLinkedElsewhere)
      : fail(422, "limit", linkWalletMessages.limit);
  }
  return json({ wallet: inserted.wallet, already_linked: false }, 201);
}

async function refresh(userId: string): Promise<Response> {
  const stale = await store.staleWallets(userId);
  if (stale.length === 0) return json({ refreshed: 0 });
  const chain = thirdwebClient();
  if (!chain.ok) return fail(503, "chain_unavailable", chain.error);
  try {
    for (const wallet of stale) await store.updateEns(wallet.address, await lookUpEns(chain.client, wallet.address as `0x${string}`));
  } catch (error) {
    if (error instanceof ChainUnreachable)
      return fail(503, "chain_unreachable", `We couldn't reach ${error.chain.name} to look up ENS names. Try again in a minute.`);
    throw error;
  }
  return json({ refreshed: stale.length });
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return fail(405, "method_not_allowed", linkWalletMessages.malformed);
  const caller = callerClaims(req);
  if (caller.role !== "authenticated" || !caller.sub) return fail(401, "not_signed_in", linkWalletMessages.notSignedIn);

  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return fail(400, "malformed", linkWalletMessages.malformed);
  }
  const input = linkWalletBodySchema.safeParse(body);
  if (!input.success) return fail(400, "malformed", linkWalletMessages.malformed);

  try {
    if (input.data.action !== "refresh" && caller.aal !== "aal2" && (await store.hasVerifiedFactor(caller.sub))) {
      return fail(403, "aal2_required", linkWalletMessages.secondFactorRequired);
    }
    if ("message" in input.data) return await link(caller.sub, input.data.message, input.data.signature as `0x${string}`);
    if (input.data.action === "refresh") return await refresh(caller.sub);
    if ((await store.walletCount(caller.sub)) >= maxWalletsPerAccount) return fail(422, "limit", linkWalletMessages.limit);
    return json(await store.issueNonce(caller.sub));
  } catch (error) {
    if (error instanceof store.TooManyAttempts) return fail(429, "rate_limited", error.message);
    console.error("link-wallet failed:", error);
    return fail(500, "internal", "Something went wrong on our side and the wallet was not linked — try again.");
  }
});
