import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { audit } from "./audit.ts";
import { hashPassword, randomUUID, tokenHash } from "./crypto.ts";
import { AuthError, badRequest, forbidden, tooManyRequests, unprocessable } from "./errors.ts";
import { type Params, booleanField, objectField, stringField } from "./request.ts";
import type { AuthService } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { type Db, type UserRow, addProvider, findUserById, insertIdentity, insertUser, userJson, withTransaction } from "./users.ts";

/**
 * The phone provider. The stack sends no SMS: only [auth.sms.test_otp] numbers receive codes (their
 * fixed OTP, as GoTrue uses test OTPs without calling its SMS provider); any other number fails as
 * GoTrue fails without a configured SMS provider.
 */

const e164 = /^[1-9][0-9]{1,14}$/;

/** GoTrue's validatePhone: `+` and spaces dropped, then E.164 digits. */
export function validatePhone(phone: string): string {
  const formatted = phone.replace(/^\+/, "").replaceAll(" ", "");
  if (!e164.test(formatted)) throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
  return formatted;
}

export type PhoneOtpKind = "confirmation" | "phone_change" | "reauthentication";

const columns: Record<PhoneOtpKind, { token: string; sent: string; oneTime: string }> = {
  confirmation: { token: "confirmation_token", sent: "confirmation_sent_at", oneTime: "confirmation_token" },
  phone_change: { token: "phone_change_token", sent: "phone_change_sent_at", oneTime: "phone_change_token" },
  reauthentication: { token: "reauthentication_token", sent: "reauthentication_sent_at", oneTime: "reauthentication_token" },
};

/** GoTrue's sendPhoneConfirmation: max_frequency, then the test OTP (message_id "test-otp") or the provider. */
export async function sendPhoneOtp(svc: AuthService, db: Db, user: UserRow, phone: string, kind: PhoneOtpKind): Promise<string> {
  const { token, sent, oneTime } = columns[kind];
  const { rows } = await db.query<{ sent: Date | null }>(`select ${sent} as sent from auth.users where id = $1`, [user.id]);
  const sentAt = rows[0]?.sent;
  const frequency = svc.settings.sms.maxFrequencySeconds;
  if (sentAt && sentAt.getTime() + frequency * 1000 >= Date.now()) {
    const left = Math.ceil((sentAt.getTime() + frequency * 1000 - Date.now()) / 1000);
    throw tooManyRequests("over_sms_send_rate_limit", `For security purposes, you can only request this after ${left} seconds.`);
  }
  const otp = svc.settings.sms.testOtp.get(phone);
  if (!otp) throw new AuthError(500, "unexpected_failure", "Unable to get SMS provider");
  const hash = tokenHash(phone, otp);
  await db.query(
    `update auth.users set ${token} = $2, ${sent} = now()${kind === "phone_change" ? ", phone_change = $3" : ""} where id = $1`,
    kind === "phone_change" ? [user.id, hash, phone] : [user.id, hash],
  );
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [randomUUID(), user.id, oneTime, hash, phone],
  );
  return "test-otp";
}

async function findUserByPhone(db: Db, phone: string, column: "phone" | "phone_change" = "phone"): Promise<UserRow | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `select id from auth.users where ${column} = $1 and deleted_at is null and is_sso_user = false limit 1`,
    [phone],
  );
  return rows[0] ? await findUserById(db, rows[0].id) : undefined;
}

function phoneProviderOn(svc: AuthService): void {
  if (!svc.settings.sms.enabled) throw badRequest("phone_provider_disabled", "Unsupported phone provider");
}

/**
 * POST /otp with a phone (GoTrue's SmsOtp): an unknown or unconfirmed number is signed up first; with
 * sms confirmations off the new user is confirmed at once and gets its code like anyone else.
 */
export async function smsOtp(svc: AuthService, req: IncomingMessage, params: Params): Promise<Record<string, unknown>> {
  phoneProviderOn(svc);
  const channel = stringField(params, "channel") || "sms";
  if (channel !== "sms" && channel !== "whatsapp") throw badRequest("validation_failed", "Invalid channel");
  const phone = validatePhone(stringField(params, "phone"));
  const data = objectField(params, "data") ?? {};
  const createUser = booleanField(params, "create_user") ?? true;
  return await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:phone:${phone}`]);
    let user = await findUserByPhone(db, phone);
    if (!user && !createUser) throw unprocessable("otp_disabled", "Signups not allowed for otp");
    if (!user || !user.phone_confirmed_at) {
      if (!user && !svc.settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
      user ??= await signUpPhone(db, phone, data, !svc.settings.sms.enableConfirmations);
      if (svc.settings.sms.enableConfirmations) {
        await sendPhoneOtp(svc, db, user, phone, "confirmation");
        return {};
      }
    }
    await audit(db, req, user, "user_recovery_requested", { channel });
    return { message_id: await sendPhoneOtp(svc, db, user, phone, "confirmation") };
  });
}

async function signUpPhone(db: Db, phone: string, data: Record<string, unknown>, confirmed: boolean): Promise<UserRow> {
  const user = await insertUser(db, {
    email: null,
    encryptedPassword: await hashPassword(randomBytes(32).toString("base64url")),
    userMetadata: data,
    appMetadata: { provider: "phone", providers: ["phone"] },
    emailConfirmed: false,
  });
  await db.query(`update auth.users set phone = $2, phone_confirmed_at = ${confirmed ? "now()" : "null"} where id = $1`, [user.id, phone]);
  await insertIdentity(db, user.id, "phone", user.id, { sub: user.id, phone, email_verified: false, phone_verified: false });
  return (await findUserById(db, user.id))!;
}

function matches(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

const invalid = () => forbidden("otp_expired", "Token has expired or is invalid");

/**
 * POST /verify {type: "sms" | "phone_change", phone, token}: a configured test OTP always verifies
 * its number; otherwise the last code sent, within the SMS OTP expiry. Confirms the phone (sms) or
 * moves the pending number onto the user (phone_change), in the caller's transaction.
 */
export async function verifyPhone(
  svc: AuthService,
  db: Db,
  type: "sms" | "phone_change",
  phoneInput: string,
  otp: string,
): Promise<UserRow> {
  const phone = validatePhone(phoneInput);
  const found = await findUserByPhone(db, phone, type === "sms" ? "phone" : "phone_change");
  if (!found) throw invalid();
  if (found.banned_until && found.banned_until.getTime() > Date.now()) throw forbidden("user_banned", "User is banned");
  const { token, sent } = columns[type === "sms" ? "confirmation" : "phone_change"];
  const { rows } = await db.query<{ token: string | null; sent: Date | null }>(
    `select ${token} as token, ${sent} as sent from auth.users where id = $1 for update`,
    [found.id],
  );
  const testOtp = svc.settings.sms.testOtp.get(phone);
  const byTestOtp = testOtp !== undefined && otp === testOtp;
  const stored = rows[0]?.token ?? "";
  const sentAt = rows[0]?.sent;
  const fresh = sentAt && Date.now() <= sentAt.getTime() + svc.settings.sms.otpExpiry * 1000;
  if (!byTestOtp && !(stored && fresh && matches(stored, tokenHash(phone, otp)))) throw invalid();
  if (type === "sms") {
    await db.query(
      "update auth.users set phone_confirmed_at = coalesce(phone_confirmed_at, now()), confirmation_token = '', updated_at = now() where id = $1",
      [found.id],
    );
    await db.query(
      "update auth.identities set identity_data = identity_data || '{\"phone_verified\": true}'::jsonb where user_id = $1 and provider = 'phone'",
      [found.id],
    );
  } else {
    await applyPhoneChange(db, found, phone);
  }
  await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = $2", [
    found.id,
    type === "sms" ? "confirmation_token" : "phone_change_token",
  ]);
  return (await findUserById(db, found.id))!;
}

/** The pending number becomes the user's (confirmed), with a phone identity to match. */
async function applyPhoneChange(db: Db, user: UserRow, phone: string): Promise<void> {
  await db.query(
    "update auth.users set phone = $2, phone_change = '', phone_change_token = '', phone_confirmed_at = now(), updated_at = now() where id = $1",
    [user.id, phone],
  );
  const { rowCount } = await db.query(
    "update auth.identities set identity_data = identity_data || jsonb_build_object('phone', $2::text, 'phone_verified', true) where user_id = $1 and provider = 'phone'",
    [user.id, phone],
  );
  if (!rowCount) await insertIdentity(db, user.id, "phone", user.id, { sub: user.id, phone, phone_verified: true });
  await addProvider(db, user, "phone");
}

/** PUT /user {phone}: a phone change, confirmed by the code sent to the new number. */
export async function requestPhoneChange(svc: AuthService, db: Db, user: UserRow, phoneInput: string): Promise<void> {
  phoneProviderOn(svc);
  const phone = validatePhone(phoneInput);
  if (phone === (user.phone ?? "")) return;
  const taken = await findUserByPhone(db, phone);
  if (taken && taken.id !== user.id) throw unprocessable("phone_exists", "A user with this phone number has already been registered");
  // With SMS confirmations off (GoTrue's sms autoconfirm) the number changes at once.
  if (!svc.settings.sms.enableConfirmations) return await applyPhoneChange(db, user, phone);
  await sendPhoneOtp(svc, db, user, phone, "phone_change");
}

/**
 * POST /signup with a phone and password (GoTrue's phone provider): with SMS confirmations off the
 * user is confirmed and signed in at once; with them on, the answer is the user and a code goes out.
 */
export async function phoneSignup(
  svc: AuthService,
  req: IncomingMessage,
  phoneInput: string,
  password: string,
  data: Record<string, unknown>,
): Promise<unknown> {
  if (!svc.settings.sms.enabled) throw badRequest("phone_provider_disabled", "Phone signups are disabled");
  const phone = validatePhone(phoneInput);
  const autoconfirm = !svc.settings.sms.enableConfirmations;
  const encryptedPassword = await hashPassword(password);
  return await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:phone:${phone}`]);
    const existing = await findUserByPhone(db, phone);
    if (existing?.phone_confirmed_at) throw unprocessable("user_already_exists", "User already registered");
    const user = existing ?? (await signUpPhone(db, phone, data, autoconfirm));
    await db.query("update auth.users set encrypted_password = $2 where id = $1", [user.id, encryptedPassword]);
    await audit(db, req, user, autoconfirm ? "user_signedup" : "user_confirmation_requested", { provider: "phone" });
    if (autoconfirm) return await issueSession(db, svc.settings, user.id, "password", req);
    await sendPhoneOtp(svc, db, user, phone, "confirmation");
    return userJson((await findUserById(db, user.id))!);
  });
}

/** The user a phone + password sign-in names (GoTrue's password grant for the phone provider). */
export async function findPhoneLogin(svc: AuthService, db: Db, phoneInput: string): Promise<UserRow | undefined> {
  if (!svc.settings.sms.enabled) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
  return await findUserByPhone(db, phoneInput.replace(/^\+/, "").replaceAll(" ", ""));
}
