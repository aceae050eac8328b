import type { IncomingMessage } from "node:http";
import { badRequest, forbidden } from "./errors.ts";
import { tokenHash } from "./crypto.ts";
import { verifyPhone } from "./phone.ts";
import { type FlowMethod, issueAuthCode } from "./pkce.ts";
import type { AuthService } from "./service.ts";
import type { AuthSettings } from "./settings.ts";
import { type AuthMethod, type SessionResponse, issueSession } from "./sessions.ts";
import { type Db, type UserRow, findUserByEmail, findUserById, findUserByToken, withTransaction } from "./users.ts";

const verifyTypes = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;
export type VerifyType = (typeof verifyTypes)[number];
export type PhoneVerifyType = "sms" | "phone_change";

export function parseVerifyType(value: string): VerifyType {
  if (!value) throw badRequest("validation_failed", "Verify requires a verification type");
  if (!(verifyTypes as readonly string[]).includes(value)) throw badRequest("validation_failed", "Unsupported verification type");
  return value as VerifyType;
}

/** POST /verify also takes the phone types, checked by phone and OTP. */
export function parsePostVerifyType(value: string): VerifyType | PhoneVerifyType {
  return value === "sms" || value === "phone_change" ? value : parseVerifyType(value);
}

type TokenColumn = "confirmation_token" | "recovery_token" | "email_change_token_new" | "email_change_token_current";

const lookupColumns: Record<VerifyType, TokenColumn[]> = {
  signup: ["confirmation_token"],
  invite: ["confirmation_token"],
  magiclink: ["recovery_token"],
  recovery: ["recovery_token"],
  email: ["confirmation_token", "recovery_token"],
  email_change: ["email_change_token_new", "email_change_token_current"],
};

const sentColumn: Record<TokenColumn, "confirmation_sent_at" | "recovery_sent_at" | "email_change_sent_at"> = {
  confirmation_token: "confirmation_sent_at",
  recovery_token: "recovery_sent_at",
  email_change_token_new: "email_change_sent_at",
  email_change_token_current: "email_change_sent_at",
};

/** GoTrue words it by what was presented: a link's token hash, or an address and its OTP. */
export const invalidOtp = (byHash = true) =>
  forbidden("otp_expired", byHash ? "Email link is invalid or has expired" : "Token has expired or is invalid");

export interface VerifyInput {
  tokenHash?: string;
  email?: string;
  otp?: string;
}

export interface Verified {
  user: UserRow;
  /** The flow-state method a PKCE link was issued for. */
  flowMethod: FlowMethod;
  method: AuthMethod;
  pkce: boolean;
  /** Email change confirmed on one address of two: no session yet (GoTrue answers with a message). */
  awaitingOtherAddress: boolean;
}

async function locate(
  db: Db,
  type: VerifyType,
  input: VerifyInput,
): Promise<{ user: UserRow; column: TokenColumn; token: string } | undefined> {
  for (const column of lookupColumns[type]) {
    if (input.tokenHash) {
      const user = await findUserByToken(db, column, input.tokenHash);
      if (user) return { user, column, token: input.tokenHash };
      continue;
    }
    if (!input.email || !input.otp) continue;
    const target = column === "email_change_token_new" ? undefined : await findUserByEmail(db, input.email);
    const candidates = target ? [target] : await usersChangingTo(db, input.email);
    for (const user of candidates) {
      const hash = tokenHash(input.email, input.otp);
      const stored = user[column] ?? "";
      if (stored && (stored === hash || stored === `pkce_${hash}`)) return { user, column, token: stored };
    }
  }
  return undefined;
}

async function usersChangingTo(db: Db, email: string): Promise<UserRow[]> {
  const { rows } = await db.query<{ id: string }>("select id from auth.users where lower(email_change) = lower($1)", [email]);
  const users = await Promise.all(rows.map((row) => findUserById(db, row.id)));
  return users.filter((u): u is UserRow => Boolean(u));
}

const flowMethods: Record<VerifyType, FlowMethod> = {
  signup: "email/signup",
  invite: "invite",
  magiclink: "magiclink",
  recovery: "recovery",
  email: "magiclink",
  email_change: "email_change",
};

async function markEmailVerified(db: Db, user: UserRow): Promise<void> {
  await db.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1", [user.id]);
  await db.query(
    "update auth.identities set identity_data = identity_data || jsonb_build_object('email_verified', true), updated_at = now() where user_id = $1 and provider = 'email'",
    [user.id],
  );
}

/**
 * Checks an email link's token (by hash, or by address + OTP) and applies what it confirms, inside
 * the caller's transaction. Tokens are single-use: the column is cleared as GoTrue clears it.
 */
export async function verifyToken(db: Db, settings: AuthSettings, type: VerifyType, input: VerifyInput): Promise<Verified> {
  const byHash = Boolean(input.tokenHash);
  const found = await locate(db, type, input);
  if (!found) throw invalidOtp(byHash);
  const user = (await findUserById(db, found.user.id, true))!;
  if (user[found.column] !== found.token) throw invalidOtp(byHash);
  const sentAt = user[sentColumn[found.column]];
  if (!sentAt || Date.now() - sentAt.getTime() > settings.email.otpExpiry * 1000) throw invalidOtp(byHash);
  if (user.banned_until && user.banned_until.getTime() > Date.now()) throw forbidden("user_banned", "User is banned");

  const pkce = found.token.startsWith("pkce_");
  const verifiedType: VerifyType = type === "email" ? (found.column === "confirmation_token" ? "signup" : "magiclink") : type;
  let awaitingOtherAddress = false;

  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = $2", [user.id, found.column]);
  if (found.column === "confirmation_token") {
    await db.query("update auth.users set confirmation_token = '', updated_at = now() where id = $1", [user.id]);
    await markEmailVerified(db, user);
  } else if (found.column === "recovery_token") {
    await db.query("update auth.users set recovery_token = '', updated_at = now() where id = $1", [user.id]);
    await markEmailVerified(db, user);
  } else {
    const other = found.column === "email_change_token_new" ? "email_change_token_current" : "email_change_token_new";
    const otherPending = Boolean(user[other]) && settings.email.doubleConfirmChanges && (user.email_change_confirm_status ?? 0) === 0;
    if (otherPending) {
      await db.query(`update auth.users set ${found.column} = '', email_change_confirm_status = 1, updated_at = now() where id = $1`, [
        user.id,
      ]);
      awaitingOtherAddress = true;
    } else {
      const newEmail = user.email_change ?? "";
      await db.query(
        `update auth.users set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '',
           email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
        [user.id, newEmail],
      );
      await db.query(
        "delete from auth.one_time_tokens where user_id = $1 and token_type in ('email_change_token_new', 'email_change_token_current')",
        [user.id],
      );
      await db.query(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now() where user_id = $1 and provider = 'email'",
        [user.id, newEmail],
      );
    }
  }
  return {
    user: (await findUserById(db, user.id))!,
    flowMethod: flowMethods[verifiedType],
    method: "otp",
    pkce,
    awaitingOtherAddress,
  };
}

/** What a verified link (GET /verify) leads to. */
export type LinkOutcome =
  | { awaitingOtherAddress: true; pkce: boolean }
  | { awaitingOtherAddress: false; code: string }
  | { awaitingOtherAddress: false; session: SessionResponse };

/** GET /verify: a PKCE link gives an auth code, any other a session; an email change may await its other address. */
export async function verifyLink(svc: AuthService, req: IncomingMessage, type: VerifyType, token: string): Promise<LinkOutcome> {
  return await withTransaction(svc.pool, async (db) => {
    const verified = await verifyToken(db, svc.settings, type, { tokenHash: token });
    if (verified.awaitingOtherAddress) return { awaitingOtherAddress: true, pkce: verified.pkce };
    if (verified.pkce) return { awaitingOtherAddress: false, code: await issueAuthCode(db, verified.user.id, verified.flowMethod) };
    return { awaitingOtherAddress: false, session: await issueSession(db, svc.settings, verified.user.id, verified.method, req) };
  });
}

/** POST /verify with an email token (a hash, or an address and its OTP): a session, or null while an email change awaits its other address. */
export async function verifyEmailToken(
  svc: AuthService,
  req: IncomingMessage,
  type: VerifyType,
  input: VerifyInput,
): Promise<SessionResponse | null> {
  return await withTransaction(svc.pool, async (db) => {
    const verified = await verifyToken(db, svc.settings, type, input);
    if (verified.awaitingOtherAddress) return null;
    return await issueSession(db, svc.settings, verified.user.id, verified.method, req);
  });
}

/** POST /verify with a phone and its code (sms, phone_change): a session. */
export async function verifyPhoneToken(
  svc: AuthService,
  req: IncomingMessage,
  type: PhoneVerifyType,
  phone: string,
  otp: string,
): Promise<SessionResponse> {
  return await withTransaction(svc.pool, async (db) => {
    const user = await verifyPhone(svc, db, type, phone, otp);
    return await issueSession(db, svc.settings, user.id, "otp", req);
  });
}
