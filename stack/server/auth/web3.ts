import { createHash } from "node:crypto";
import { type Hex, getAddress, recoverMessageAddress } from "viem";
import { OAuthError, badRequest, unprocessable } from "./errors.ts";
import { isRedirectAllowed } from "./redirect.ts";
import { readParams, stringField } from "./request.ts";
import { type AuthService, type Call, limit, ok } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { SiweParseError, type SiweMessage, parseSiweMessage } from "./siwe.ts";
import { type Db, findUserById, insertIdentity, insertUser, withTransaction } from "./users.ts";

/** GoTrue's MaximumValidityDuration for Ethereum messages (10 minutes either side of Issued At). */
const maximumValidityMs = 10 * 60 * 1000;

/**
 * Messages already used to sign in, until they could no longer be accepted anyway. GoTrue relies
 * on the validity window alone; the stack also refuses an exact replay inside that window.
 */
const usedMessages = new Map<string, number>();

function rememberUse(message: string, until: number): boolean {
  const now = Date.now();
  for (const [key, expiry] of usedMessages) if (expiry < now) usedMessages.delete(key);
  const key = createHash("sha256").update(message).digest("hex");
  if (usedMessages.has(key)) return false;
  usedMessages.set(key, until);
  return true;
}

function checkOrigin(svc: AuthService, message: SiweMessage): void {
  const { uri } = message;
  if (uri.protocol !== "https:" && uri.hostname !== "localhost") {
    throw new OAuthError("invalid_grant", "Signed Ethereum message is using URI which does not use HTTPS");
  }
  if (!isRedirectAllowed(svc.settings, uri.href)) {
    throw new OAuthError(
      "invalid_grant",
      "Signed Ethereum message is using URI which is not allowed on this server, message was signed for another app",
    );
  }
  if (uri.hostname !== "localhost" && (uri.host !== message.domain || !isRedirectAllowed(svc.settings, `https://${message.domain}/`))) {
    throw new OAuthError(
      "invalid_grant",
      "Signed Ethereum message is using a Domain that does not match the one in URI which is not allowed on this server",
    );
  }
}

function checkTimes(message: SiweMessage): number {
  const now = Date.now();
  if (message.notBefore && now < message.notBefore.getTime())
    throw new OAuthError("invalid_grant", "Signed Ethereum message becomes valid in the future");
  if (message.expirationTime && now > message.expirationTime.getTime())
    throw new OAuthError("invalid_grant", "Signed Ethereum message is expired");
  const issued = message.issuedAt.getTime();
  if (now > issued + maximumValidityMs) throw new OAuthError("invalid_grant", "Ethereum message was issued too long ago");
  if (now < issued - maximumValidityMs) throw new OAuthError("invalid_grant", "Ethereum message was issued too far in the future");
  return Math.min(issued + maximumValidityMs, message.expirationTime?.getTime() ?? Number.POSITIVE_INFINITY);
}

async function signatureMatches(message: string, signature: string, address: string): Promise<boolean> {
  try {
    const hex = (signature.startsWith("0x") ? signature : `0x${signature}`) as Hex;
    const recovered = await recoverMessageAddress({ message, signature: hex });
    return recovered.toLowerCase() === address.toLowerCase();
  } catch {
    return false;
  }
}

/** The user behind a web3 identity, created with that identity on first sign-in. */
async function userForAddress(db: Db, message: SiweMessage): Promise<string> {
  const address = getAddress(message.address);
  const providerId = `web3:ethereum:${address}`;
  const { rows } = await db.query<{ user_id: string }>(
    "select user_id from auth.identities where provider = 'web3' and provider_id = $1 for update",
    [providerId],
  );
  const claims = {
    sub: providerId,
    custom_claims: {
      address,
      chain: "ethereum",
      network: String(message.chainId),
      domain: message.domain,
      statement: message.statement ?? "",
    },
    email_verified: false,
    phone_verified: false,
  };
  if (rows[0]) {
    await db.query(
      "update auth.identities set identity_data = $2, last_sign_in_at = now(), updated_at = now() where provider = 'web3' and provider_id = $1",
      [providerId, claims],
    );
    return rows[0].user_id;
  }
  const user = await insertUser(db, {
    email: null,
    encryptedPassword: "",
    userMetadata: claims,
    appMetadata: { provider: "web3", providers: ["web3"] },
    emailConfirmed: false,
  });
  await insertIdentity(db, user.id, "web3", providerId, claims);
  return user.id;
}

/** POST /token?grant_type=web3 with {chain: 'ethereum', message, signature} (EIP-4361). */
export async function web3Grant(svc: AuthService, call: Call): Promise<void> {
  if (!svc.settings.web3Ethereum) throw unprocessable("web3_provider_disabled", "Web3 provider is disabled");
  const params = await readParams(call.req);
  limit(call, svc.limits.web3);
  const chain = stringField(params, "chain");
  const text = stringField(params, "message");
  const signature = stringField(params, "signature");
  if (chain !== "ethereum") {
    if (chain === "solana") throw unprocessable("web3_provider_disabled", "Solana Web3 provider is disabled");
    throw badRequest("web3_unsupported_chain", "Unsupported chain");
  }
  if (text.length < 64) throw badRequest("validation_failed", "message is too short");
  if (text.length > 20 * 1024) throw badRequest("validation_failed", "message must not exceed 20KB");
  if (!/^[0-9a-fA-F]{130}$/.test(signature.replace(/^0x/, ""))) {
    throw badRequest("validation_failed", "signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string");
  }
  let message: SiweMessage;
  try {
    message = parseSiweMessage(text);
  } catch (error) {
    if (error instanceof SiweParseError) throw badRequest("validation_failed", error.message);
    throw error;
  }
  if (!(await signatureMatches(text, signature, message.address)))
    throw new OAuthError("invalid_grant", "Signature does not match address in message");
  checkOrigin(svc, message);
  const acceptableUntil = checkTimes(message);
  if (!rememberUse(text, acceptableUntil)) throw new OAuthError("invalid_grant", "Signed Ethereum message has already been used");
  const session = await withTransaction(svc.pool, async (db) => {
    const userId = await userForAddress(db, message);
    const user = await findUserById(db, userId);
    if (user?.banned_until && user.banned_until.getTime() > Date.now()) throw badRequest("user_banned", "User is banned");
    return await issueSession(db, svc.settings, userId, "web3", call.req);
  });
  ok(call, session);
}
