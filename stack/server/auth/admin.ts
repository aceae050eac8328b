import { randomBytes } from "node:crypto";
import { badRequest, notFound, unprocessable } from "./errors.ts";
import { featureDisabled } from "./disabled.ts";
import { hashPassword } from "./crypto.ts";
import { type LinkContext, createEmailChange, createLink } from "./links.ts";
import { booleanField, objectField, readParams, stringField } from "./request.ts";
import { type AuthService, type Call, checkPasswordStrength, ok, redirectTo, requireAdmin, validateEmail } from "./service.ts";
import { audit } from "./audit.ts";
import { adminFactors } from "./factors.ts";
import { isRedirectAllowed } from "./redirect.ts";
import { type Db, type UserRow, findUserByEmail, findUserById, insertEmailIdentity, insertUser, mergeMetadata, userJson, withTransaction } from "./users.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GoTrue's ban_duration: "none" lifts a ban; otherwise a Go duration such as "24h" or "876000h". */
function banUntil(value: string): Date | null {
  if (value === "none") return null;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== value) throw badRequest("validation_failed", "invalid format for ban duration: time: invalid duration");
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return new Date(Date.now() + parts.reduce((sum, [, n, u]) => sum + Number(n) * unit[u], 0));
}

async function loadTarget(db: Db, id: string, lock = false): Promise<UserRow> {
  if (!uuidPattern.test(id)) throw notFound("validation_failed", "user_id must be an UUID");
  const user = await findUserById(db, id, lock);
  if (!user) throw notFound("user_not_found", "User not found");
  return user;
}

/** POST /admin/users */
async function createUser(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  const emailInput = stringField(params, "email");
  const phone = stringField(params, "phone");
  if (!emailInput && !phone) throw badRequest("validation_failed", "Cannot create a user without either an email or phone");
  if (!emailInput) throw badRequest("phone_provider_disabled", "Phone provider is disabled");
  const email = validateEmail(emailInput);
  const password = stringField(params, "password");
  if (password) checkPasswordStrength(svc.settings, password);
  const userMetadata = objectField(params, "user_metadata") ?? objectField(params, "data") ?? {};
  const appMetadata = objectField(params, "app_metadata") ?? {};
  const emailConfirm = booleanField(params, "email_confirm") ?? false;
  const id = stringField(params, "id");
  if (id && !uuidPattern.test(id)) throw badRequest("validation_failed", "ID must conform to the uuid v4 format");
  if (id && /^0{8}-0{4}-0{4}-0{4}-0{12}$/.test(id)) throw badRequest("validation_failed", "ID cannot be a nil uuid");
  const ban = stringField(params, "ban_duration");
  const role = stringField(params, "role");
  const user = await withTransaction(svc.pool, async (db) => {
    if (await findUserByEmail(db, email)) throw unprocessable("email_exists", "A user with this email address has already been registered");
    const created = await insertUser(db, {
      id: id || undefined,
      email,
      // No password: GoTrue sets a random one, so the account exists but no one can sign in with it.
      encryptedPassword: await hashPassword(password || randomBytes(48).toString("base64url")),
      userMetadata,
      appMetadata: { provider: "email", providers: ["email"], ...appMetadata },
      emailConfirmed: emailConfirm,
      role: role || undefined,
    });
    await insertEmailIdentity(db, created);
    if (emailConfirm) {
      await db.query("update auth.identities set identity_data = identity_data || '{\"email_verified\": true}'::jsonb where user_id = $1", [created.id]);
    }
    if (ban) await db.query("update auth.users set banned_until = $2 where id = $1", [created.id, banUntil(ban)]);
    return (await findUserById(db, created.id))!;
  });
  ok(call, userJson(user));
}

/** Go's strconv.ParseUint(value, 10, 64), with its error text. */
function parseUint(value: string): number {
  const quoted = JSON.stringify(value);
  if (!/^[0-9]+$/.test(value)) throw new Error(`strconv.ParseUint: parsing ${quoted}: invalid syntax`);
  if (BigInt(value) > 18_446_744_073_709_551_615n) throw new Error(`strconv.ParseUint: parsing ${quoted}: value out of range`);
  return Number(value);
}

/** GoTrue's paginate: `page` and `per_page` must be unsigned integers, else 400 "Bad Pagination Parameters". */
function paginate(url: URL): { page: number; perPage: number } {
  try {
    const page = url.searchParams.get("page");
    const perPage = url.searchParams.get("per_page");
    return { page: page ? parseUint(page) : 1, perPage: perPage ? parseUint(perPage) : 50 };
  } catch (error) {
    throw badRequest("validation_failed", `Bad Pagination Parameters: ${(error as Error).message}`);
  }
}

/** GET /admin/users?page=&per_page= with X-Total-Count and Link headers, as auth-js paginates. */
async function listUsers(svc: AuthService, call: Call): Promise<void> {
  const { page: pageParam, perPage: perPageParam } = paginate(call.url);
  const page = Math.max(1, pageParam);
  const perPage = Math.min(1000, Math.max(1, perPageParam));
  const { rows: countRows } = await svc.pool.query<{ total: string }>("select count(*) as total from auth.users where deleted_at is null");
  const total = Number(countRows[0].total);
  const { rows } = await svc.pool.query<{ id: string }>("select id from auth.users where deleted_at is null order by created_at desc, id limit $1 offset $2", [perPage, (page - 1) * perPage]);
  const users = (await Promise.all(rows.map((row) => findUserById(svc.pool, row.id)))).filter((u): u is UserRow => Boolean(u));
  const last = Math.max(1, Math.ceil(total / perPage));
  const base = `${svc.settings.externalUrl}/admin/users`;
  const links = [`<${base}?page=${last}&per_page=${perPage}>; rel="last"`];
  if (page < last) links.unshift(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  const body = JSON.stringify({ users: users.map(userJson), aud: "authenticated" });
  call.res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), "X-Total-Count": String(total), Link: links.join(", ") });
  call.res.end(body);
}

/** PUT /admin/users/{id} */
async function updateUser(svc: AuthService, call: Call, id: string): Promise<void> {
  const params = await readParams(call.req);
  const user = await withTransaction(svc.pool, async (db) => {
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
      if (taken && taken.id !== target.id) throw unprocessable("email_exists", "A user with this email address has already been registered");
      await db.query("update auth.users set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '' where id = $1", [target.id, email]);
      await db.query("update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'", [target.id, email]);
    }
    // email_confirm only ever confirms (false is GoTrue's default, not an instruction).
    if (booleanField(params, "email_confirm")) await db.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1", [target.id]);
    const userMetadata = objectField(params, "user_metadata");
    if (userMetadata) await db.query("update auth.users set raw_user_meta_data = $2 where id = $1", [target.id, mergeMetadata(target.raw_user_meta_data, userMetadata)]);
    const appMetadata = objectField(params, "app_metadata");
    if (appMetadata) await db.query("update auth.users set raw_app_meta_data = $2 where id = $1", [target.id, mergeMetadata(target.raw_app_meta_data, appMetadata)]);
    const role = stringField(params, "role");
    if (role) await db.query("update auth.users set role = $2 where id = $1", [target.id, role]);
    const ban = stringField(params, "ban_duration");
    // A ban stops sign-ins and refreshes; access tokens already issued run out on their own.
    if (ban) await db.query("update auth.users set banned_until = $2 where id = $1", [target.id, banUntil(ban)]);
    await db.query("update auth.users set updated_at = now() where id = $1", [target.id]);
    return (await findUserById(db, target.id))!;
  });
  ok(call, userJson(user));
}

/** DELETE /admin/users/{id} ({should_soft_delete}): 200 with an empty object, as GoTrue answers. */
async function deleteUser(svc: AuthService, call: Call, id: string): Promise<void> {
  const params = await readParams(call.req);
  const soft = booleanField(params, "should_soft_delete") ?? false;
  await withTransaction(svc.pool, async (db) => {
    const target = await loadTarget(db, id, true);
    await audit(db, call.req, target, "user_deleted", { user_id: target.id, user_email: target.email ?? "" });
    if (soft) {
      await db.query(
        `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '', confirmation_token = '', recovery_token = '',
           email_change_token_new = '', email_change_token_current = '', raw_user_meta_data = '{}'::jsonb, updated_at = now() where id = $1`,
        [target.id],
      );
      await db.query("delete from auth.identities where user_id = $1", [target.id]);
      await db.query("delete from auth.sessions where user_id = $1", [target.id]);
    } else {
      await db.query("delete from auth.users where id = $1", [target.id]);
    }
  });
  ok(call, {});
}

const linkTypes = ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"] as const;

/**
 * POST /admin/generate_link: the link and OTP an email would carry, without sending it. The answer
 * is the user with action_link, email_otp, hashed_token, redirect_to and verification_type.
 */
async function generateLink(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  let type = stringField(params, "type") as (typeof linkTypes)[number];
  const email = validateEmail(stringField(params, "email"));
  let password = stringField(params, "password");
  const data = objectField(params, "data") ?? {};
  const asked = stringField(params, "redirect_to");
  const redirect = asked && isRedirectAllowed(svc.settings, asked) ? asked : redirectTo(svc, call);
  const body = await withTransaction(svc.pool, async (db) => {
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
        await db.query("update auth.users set raw_user_meta_data = $2 where id = $1", [user.id, mergeMetadata(user.raw_user_meta_data, data)]);
      }
      if (type === "invite") await db.query("update auth.users set invited_at = now() where id = $1", [user.id]);
    }
    let link;
    if (type === "email_change_current" || type === "email_change_new") {
      if (type === "email_change_current" && !svc.settings.email.doubleConfirmChanges) {
        throw badRequest("validation_failed", "Enable secure email change to generate link for current email");
      }
      const newEmail = validateEmail(stringField(params, "new_email"));
      const taken = await findUserByEmail(db, newEmail);
      if (taken && taken.id !== user!.id) throw unprocessable("email_exists", "A user with this email address has already been registered");
      const links = await createEmailChange(linkContext, user!, newEmail, false);
      link = type === "email_change_current" && links.currentLink ? links.currentLink : links.newLink;
    } else {
      link = await createLink(linkContext, user!, type, false);
    }
    const fresh = (await findUserById(db, user!.id))!;
    return { ...userJson(fresh), action_link: link.actionLink, email_otp: link.otp, hashed_token: link.hashedToken, verification_type: type, redirect_to: redirect };
  });
  ok(call, body);
}

/** POST /invite (admin): creates the user when needed and emails the invite template. */
export async function invite(svc: AuthService, call: Call): Promise<void> {
  requireAdmin(call);
  const params = await readParams(call.req);
  const email = validateEmail(stringField(params, "email"));
  const data = objectField(params, "data") ?? {};
  const redirect = redirectTo(svc, call);
  const user = await withTransaction(svc.pool, async (db) => {
    let target = await findUserByEmail(db, email);
    if (target?.email_confirmed_at) throw unprocessable("email_exists", "A user with this email address has already been registered");
    if (!target) {
      target = await insertUser(db, { email, encryptedPassword: "", userMetadata: data, appMetadata: { provider: "email", providers: ["email"] }, emailConfirmed: false, invited: true });
      await insertEmailIdentity(db, target, data);
    }
    await db.query("update auth.users set invited_at = now() where id = $1", [target.id]);
    await createLink({ db, settings: svc.settings, mailer: svc.mailer, redirectTo: redirect, pkce: false }, target, "invite");
    return (await findUserById(db, target.id))!;
  });
  ok(call, userJson(user));
}

/** The admin routes below /admin; every one requires the service role. */
export async function admin(svc: AuthService, call: Call, rest: string): Promise<void> {
  requireAdmin(call);
  const method = call.req.method ?? "GET";
  if (rest === "/generate_link" && method === "POST") return await generateLink(svc, call);
  if (rest === "/users" && method === "POST") return await createUser(svc, call);
  if (rest === "/users" && method === "GET") return await listUsers(svc, call);
  if (rest === "/oauth" || rest.startsWith("/oauth/")) throw featureDisabled("OAuth server is disabled");
  if (rest === "/custom-providers" || rest.startsWith("/custom-providers/")) throw featureDisabled("Custom OAuth providers are disabled");
  const factorRoute = /^\/users\/([^/]+)\/factors(\/[^/]+)?$/.exec(rest);
  if (factorRoute) return await adminFactors(svc, call, await loadTarget(svc.pool, decodeURIComponent(factorRoute[1])), factorRoute[2] ?? "");
  const match = /^\/users\/([^/]+)$/.exec(rest);
  if (match) {
    const id = decodeURIComponent(match[1]);
    if (method === "GET") return ok(call, userJson(await loadTarget(svc.pool, id)));
    if (method === "PUT") return await updateUser(svc, call, id);
    if (method === "DELETE") return await deleteUser(svc, call, id);
  }
  throw notFound("not_found", "Not Found");
}

