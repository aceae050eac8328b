import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { audit } from "./audit.ts";
import { generateOtp, randomUUID, tokenHash } from "./crypto.ts";
import { tooManyRequests, unprocessable } from "./errors.ts";
import type { AuthService, Caller } from "./service.ts";
import { sendPhoneOtp } from "./phone.ts";
import { type Db, type UserRow, withTransaction } from "./users.ts";

const invalidNonceMessage = "Nonce has expired or is invalid";

/**
 * GET /reauthenticate's nonce: a one-time code for a sensitive change, by email (the
 * reauthentication template), or by SMS for a phone-only user (then the answer is its message id).
 */
export async function sendReauthentication(svc: AuthService, req: IncomingMessage, user: UserRow): Promise<string> {
  const email = user.email ?? "";
  const phone = user.phone ?? "";
  return await withTransaction(svc.pool, async (db) => {
    await audit(db, req, user, "user_reauthenticate_requested");
    if (email) {
      await sendEmailNonce(svc, db, user);
      return "";
    }
    return await sendPhoneOtp(svc, db, user, phone, "reauthentication");
  });
}

async function sendEmailNonce(svc: AuthService, db: Db, user: UserRow): Promise<void> {
  const { settings } = svc;
  const { rows } = await db.query<{ sent: Date | null }>("select reauthentication_sent_at as sent from auth.users where id = $1", [
    user.id,
  ]);
  const sentAt = rows[0]?.sent;
  const left = sentAt ? Math.ceil((sentAt.getTime() + settings.email.maxFrequencySeconds * 1000 - Date.now()) / 1000) : 0;
  if (settings.email.maxFrequencySeconds > 0 && left > 0)
    throw tooManyRequests("over_email_send_rate_limit", `For security purposes, you can only request this after ${left} seconds.`);
  svc.mailer.reserve();
  const email = user.email ?? "";
  const otp = generateOtp(settings.email.otpLength);
  const hash = tokenHash(email, otp);
  await storeNonce(db, user.id, hash, email);
  svc.mailer.send({
    kind: "reauthentication",
    to: email,
    data: {
      ConfirmationURL: "",
      Token: otp,
      TokenHash: hash,
      SiteURL: settings.siteUrl,
      RedirectTo: "",
      Email: email,
      NewEmail: "",
      Data: user.raw_user_meta_data ?? {},
    },
  });
}

/** Keeps the nonce's hash where GoTrue keeps it: the user's reauthentication_token and auth.one_time_tokens. */
async function storeNonce(db: Db, userId: string, hash: string, relatesTo: string): Promise<void> {
  await db.query("update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() where id = $1", [userId, hash]);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, 'reauthentication_token', $3, $4, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [randomUUID(), userId, hash, relatesTo],
  );
}

/**
 * Whether a password change needs a nonce: with secure_password_change, unless the caller's
 * session began within the last 24 hours (GoTrue's UpdatePasswordRequireReauthentication).
 */
export async function needsReauthentication(svc: AuthService, db: Db, caller: Caller): Promise<boolean> {
  if (!svc.settings.email.securePasswordChange) return false;
  if (!caller.sessionId) return true;
  const { rows } = await db.query<{ created_at: Date }>("select created_at from auth.sessions where id = $1", [caller.sessionId]);
  const created = rows[0]?.created_at;
  return !created || Date.now() > created.getTime() + 24 * 3600 * 1000;
}

/** GoTrue's verifyReauthentication: the nonce must match the last one sent and be within its expiry; it is used up. */
export async function consumeNonce(svc: AuthService, db: Db, user: UserRow, nonce: string): Promise<void> {
  const { rows } = await db.query<{ token: string | null; sent: Date | null }>(
    "select reauthentication_token as token, reauthentication_sent_at as sent from auth.users where id = $1",
    [user.id],
  );
  const stored = rows[0]?.token ?? "";
  const sent = rows[0]?.sent;
  if (!stored || !sent) throw unprocessable("reauthentication_not_valid", invalidNonceMessage);
  const address = user.email || user.phone || "";
  const expiry = user.email ? svc.settings.email.otpExpiry : svc.settings.sms.otpExpiry;
  const expected = Buffer.from(tokenHash(address, nonce));
  const actual = Buffer.from(stored);
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!matches || Date.now() > sent.getTime() + expiry * 1000) throw unprocessable("reauthentication_not_valid", invalidNonceMessage);
  await db.query("update auth.users set reauthentication_token = '', reauthentication_sent_at = null where id = $1", [user.id]);
  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token'", [user.id]);
}
