// The admin API's operations (routes/admin.ts serves them, and POST /invite): users created,
// listed, changed, deleted and invited, and links generated, as GoTrue does them.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { badRequest, notFound, unprocessable } from "./errors.ts";
import { hashPassword } from "./crypto.ts";
import { type LinkContext, createEmailChange, createLink } from "./links.ts";
import { type Params, booleanField, objectField, stringField } from "./request.ts";
import { type AuthService, checkPasswordStrength, validateEmail } from "./service.ts";
import { audit } from "./audit.ts";
import {
  type Db,
  type UserRow,
  findUserByEmail,
  findUserById,
  insertEmailIdentity,
  insertUser,
  mergeMetadata,
  userJson,
  withTransaction,
} from "./users.ts";

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GoTrue's ban_duration: "none" lifts a ban; otherwise a Go duration such as "24h" or "876000h". */
function banUntil(value: string): Date | null {
  if (value === "none") return null;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== value)
    throw badRequest("validation_failed", "invalid format for ban duration: time: invalid duration");
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return new Date(Date.now() + parts.reduce((sum, [, n, u]) => sum + Number(n) * unit[u], 0));
}

/** The user an admin route names by id: 404 for a malformed id or an unknown user. */
export async function loadTarget(db: Db, id: string, lock = false): Promise<UserRow> {
  if (!uuidPattern.test(id)) throw notFound("validation_failed", "user_id must be an UUID");
  const user = await findUserById(db, id, lock);
  if (!user) throw notFound("user_not_found", "User not found");
  return user;
}

export interface NewUser {
  email: string;
  password: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  emailConfirm: boolean;
  id: string;
  ban: string;
  role: string;
}

/** POST /admin/users: a user with an email identity; without a password, one nobody knows. */
export async function createUser(svc: AuthService, input: NewUser): Promise<UserRow> {
  const { email, password, id, ban, role, emailConfirm } = input;
  return await withTransaction(svc.pool, async (db) => {
    if (await findUserByEmail(db, email)) throw unprocessable("email_exists", "A user with this email address has already been registered");
    const created = await insertUser(db, {
      id: id || undefined,
      email,
      // No password: GoTrue sets a random one, so the account exists but no one can sign in with it.
      encryptedPassword: await hashPassword(password || randomBytes(48).toString("base64url")),
      userMetadata: input.userMetadata,
      appMetadata: { provider: "email", providers: ["email"], ...input.appMetadata },
      emailConfirmed: emailConfirm,
      role: role || undefined,
    });
    await insertEmailIdentity(db, created);
    if (emailConfirm) {
      await db.query("update auth.identities set identity_data = identity_data || '{\"email_verified\": true}'::jsonb where user_id = $1", [
        created.id,
      ]);
    }
    if (ban) await db.query("update auth.users set banned_until = $2 where id = $1", [created.id, banUntil(ban)]);
    return (await findUserById(db, created.id))!;
  });
}

/** Go's strconv.ParseUint(value, 10, 64), with its error text. */
function parseUint(value: string): number {
  const quoted = JSON.stringify(value);
  if (!/^[0-9]+$/.test(value)) throw new Error(`strconv.ParseUint: parsing ${quoted}: invalid syntax`);
  if (BigInt(value) > 18_446_744_073_709_551_615n) throw new Error(`strconv.ParseUint: parsing ${quoted}: value out of range`);
  return Number(value);
}

/** GoTrue's paginate: `page` and `per_page` must be unsigned integers, else 400 "Bad Pagination Parameters". */
export function paginate(url: URL): { page: number; perPage: number } {
  try {
    const page = url.searchParams.get("page");
    const perPage = url.searchParams.get("per_page");
    return { page: page ? parseUint(page) : 1, perPage: perPage ? parseUint(perPage) : 50 };
  } catch (error) {
    throw badRequest("validation_failed", `Bad Pagination Parameters: ${(error as Error).message}`);
  }
}

/** GET /admin/users: one page of users, newest first, and how many there are. */
export async function listUsers(svc: AuthService, page: number, perPage: number): Promise<{ users: UserRow[]; total: number }> {
  const { rows: countRows } = await svc.pool.query<{ total: string }>("select count(*) as total from auth.users where deleted_at is null");
  const total = Number(countRows[0].total);
  const { rows } = await svc.pool.query<{ id: string }>(
    "select id from auth.users where deleted_at is null order by created_at desc, id limit $1 offset $2",
    [perPage, (page - 1) * perPage],
  );
  const users = (await Promise.all(rows.map((row) => findUserById(svc.pool, row.id)))).filter((u): u is UserRow => Boolean(u));
  return { users, total };
}

/** PUT /admin/users/{id}: the fields `params` names (read once the user is found, as GoTrue does). */
export async function updateUser(svc: AuthService, id: string, params: Params): Promise<UserRow> {
  return await withTransaction(svc.pool, async (db) => {
    const target = await loadTarget(db, id, true);
    const password = stringField(params, "password");
    if (password) {
      checkPasswordStrength(svc.settings, password);
      await db.query("update auth.users set encrypted_password = $2 where id = $1", [target.id, await hashPassword(password)]);
      // GoTrue's UpdatePassword without a current session: every session ends.
      await db.query("delete from auth.sessions where user_id = $1", [target.id]);
    }
    const emailInput = stringField(params, "email");
    if (emailInput) {
      const email = validateEmail(emailInput);
      const taken = await findUserByEmail(db, email);
      if (taken && taken.id !== target.id)
        throw unprocessable("email_exists", "A user with this email address has already been registered");
      await db.query(
        "update auth.users set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '' where id = $1",
        [target.id, email],
      );
      await db.query(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'",
        [target.id, email],
      );
    }
    // email_confirm only ever confirms (false is GoTrue's default, not an instruction).
    if (booleanField(params, "email_confirm"))
      await db.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1", [target.id]);
    const userMetadata = objectField(params, "user_metadata");
    if (userMetadata)
      await db.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
        target.id,
        mergeMetadata(target.raw_user_meta_data, userMetadata),
      ]);
    const appMetadata = objectField(params, "app_metadata");
    if (appMetadata)
      await db.query("update auth.users set raw_app_meta_data = $2 where id = $1", [
        target.id,
        mergeMetadata(target.raw_app_meta_data, appMetadata),
      ]);
    const role = stringField(params, "role");
    if (role) await db.query("update auth.users set role = $2 where id = $1", [target.id, role]);
    const ban = stringField(params, "ban_duration");
    // A ban stops sign-ins and refreshes; access tokens already issued run out on their own.
    if (ban) await db.query("update auth.users set banned_until = $2 where id = $1", [target.id, banUntil(ban)]);
    await db.query("update auth.users set updated_at = now() where id = $1", [target.id]);
    return (await findUserById(db, target.id))!;
  });
}

/** DELETE /admin/users/{id}: the user and everything of theirs, or (soft) their identifying data. */
export async function deleteUser(svc: AuthService, req: IncomingMessage, id: string, soft: boolean): Promise<void> {
  await withTransaction(svc.pool, async (db) => {
    const target = await loadTarget(db, id, true);
    await audit(db, req, target, "user_deleted", { user_id: target.id, user_email: target.email ?? "" });
    if (soft) {
      await db.query(
        `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '', confirmation_token = '', recovery_token = '',
           email_change_token_new = '', email_change_token_current = '', raw_user_meta_data = '{}'::jsonb, updated_at = now() where id = $1`,
        [target.id],
      );
      await db.query("delete from auth.identities where user_id = $1", [target.id]);
      // GoTrue hard-deletes a soft-deleted user's factors and passkeys.
      await db.query("delete from auth.mfa_factors where user_id = $1", [target.id]);
      await db.query("delete from auth.webauthn_credentials where user_id = $1", [target.id]);
      await db.query("delete from auth.sessions where user_id = $1", [target.id]);
    } else {
      await db.query("delete from auth.users where id = $1", [target.id]);
    }
  });
}

const linkTypes = ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"] as const;

export interface LinkRequest {
  type: string;
  email: string;
  password: string;
  data: Record<string, unknown>;
  redirectTo: string;
  /** new_email, read (and checked) only for the email change types, as GoTrue reads it. */
  newEmail: () => string;
}

/**
 * POST /admin/generate_link: the link and OTP an email would carry, without sending it. The answer
 * is the user with action_link, email_otp, hashed_token, redirect_to and verification_type.
 */
export async function generateLink(svc: AuthService, input: LinkRequest): Promise<Record<string, unknown>> {
  let type = input.type as (typeof linkTypes)[number];
  let password = input.password;
  const { email, data } = input;
  const redirect = input.redirectTo;
  return await withTransaction(svc.pool, async (db) => {
    let user = await findUserByEmail(db, email);
    if (!user && type === "magiclink") {
      // A magic link for an unknown address signs it up (with a random password).
      type = "signup";
      password = randomBytes(48).toString("base64url");
    }
    if (!user && (type === "recovery" || type === "email_change_current" || type === "email_change_new")) {
      throw notFound("user_not_found", "User with this email not found");
    }
    if (!linkTypes.includes(type)) throw badRequest("validation_failed", `Invalid email action link type requested: ${type}`);
    const linkContext: LinkContext = { db, settings: svc.settings, mailer: svc.mailer, redirectTo: redirect, pkce: false };
    if (type === "signup" || type === "invite") {
      if (user?.email_confirmed_at) throw unprocessable("email_exists", "A user with this email address has already been registered");
      if (!user) {
        if (type === "signup") {
          if (!password) throw badRequest("validation_failed", "Signup requires a valid password");
          checkPasswordStrength(svc.settings, password);
        }
        user = await insertUser(db, {
          email,
          encryptedPassword: password ? await hashPassword(password) : "",
          userMetadata: data,
          appMetadata: { provider: "email", providers: ["email"] },
          emailConfirmed: false,
          invited: type === "invite",
        });
        await insertEmailIdentity(db, user);
      } else if (type === "signup") {
        await db.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
          user.id,
          mergeMetadata(user.raw_user_meta_data, data),
        ]);
      }
      if (type === "invite") await db.query("update auth.users set invited_at = now() where id = $1", [user.id]);
    }
    let link;
    if (type === "email_change_current" || type === "email_change_new") {
      if (type === "email_change_current" && !svc.settings.email.doubleConfirmChanges) {
        throw badRequest("validation_failed", "Enable secure email change to generate link for current email");
      }
      const newEmail = input.newEmail();
      const taken = await findUserByEmail(db, newEmail);
      if (taken && taken.id !== user!.id) throw unprocessable("email_exists", "A user with this email address has already been registered");
      const links = await createEmailChange(linkContext, user!, newEmail, false);
      link = type === "email_change_current" && links.currentLink ? links.currentLink : links.newLink;
    } else {
      link = await createLink(linkContext, user!, type, false);
    }
    const fresh = (await findUserById(db, user!.id))!;
    return {
      ...userJson(fresh),
      action_link: link.actionLink,
      email_otp: link.otp,
      hashed_token: link.hashedToken,
      verification_type: type,
      redirect_to: redirect,
    };
  });
}

/** POST /invite: creates the user when needed and emails the invite template. */
export async function inviteUser(svc: AuthService, email: string, data: Record<string, unknown>, redirectTo: string): Promise<UserRow> {
  return await withTransaction(svc.pool, async (db) => {
    let target = await findUserByEmail(db, email);
    if (target?.email_confirmed_at) throw unprocessable("email_exists", "A user with this email address has already been registered");
    if (!target) {
      target = await insertUser(db, {
        email,
        encryptedPassword: "",
        userMetadata: data,
        appMetadata: { provider: "email", providers: ["email"] },
        emailConfirmed: false,
        invited: true,
      });
      await insertEmailIdentity(db, target, data);
    }
    await db.query("update auth.users set invited_at = now() where id = $1", [target.id]);
    await createLink({ db, settings: svc.settings, mailer: svc.mailer, redirectTo, pkce: false }, target, "invite");
    return (await findUserById(db, target.id))!;
  });
}
