import type pg from "pg";
import { randomUUID } from "./crypto.ts";

export type Db = pg.Pool | pg.PoolClient;

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
  identities: IdentityRow[];
  /** GoTrue's factor JSON, as Postgres builds it (see `userColumns`). */
  factors: Record<string, unknown>[];
}

const instanceId = "00000000-0000-0000-0000-000000000000";

/** A factor as GoTrue serialises it (an empty friendly_name is omitted; timestamps in UTC, ISO 8601). */
export function factorJson(alias: string): string {
  const at = (column: string) => `to_char(${alias}.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  return `jsonb_strip_nulls(jsonb_build_object('id', ${alias}.id, 'friendly_name', nullif(${alias}.friendly_name, ''), 'factor_type', ${alias}.factor_type,
    'status', ${alias}.status, 'created_at', ${at("created_at")}, 'updated_at', ${at("updated_at")},
    'web_authn_aaguid', ${alias}.web_authn_aaguid, 'last_webauthn_challenge_data', ${alias}.last_webauthn_challenge_data))
    || jsonb_build_object('phone', coalesce(${alias}.phone, ''), 'last_challenged_at', ${at("last_challenged_at")})`;
}

const userColumns = `u.id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at, u.invited_at,
  u.confirmation_token, u.confirmation_sent_at, u.recovery_token, u.recovery_sent_at, u.email_change_token_new,
  u.email_change, u.email_change_sent_at, u.email_change_token_current, u.email_change_confirm_status,
  u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.created_at, u.updated_at, u.phone,
  u.phone_confirmed_at, u.confirmed_at, u.banned_until, u.deleted_at, u.is_anonymous, u.is_sso_user,
  coalesce((select json_agg(i order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]'::json) as identities,
  coalesce((select json_agg(${factorJson("f")} order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id), '[]'::json) as factors`;

function reviveIdentity(raw: Record<string, unknown>): IdentityRow {
  const date = (v: unknown) => (typeof v === "string" ? new Date(v) : null);
  return {
    ...(raw as unknown as IdentityRow),
    last_sign_in_at: date(raw.last_sign_in_at),
    created_at: date(raw.created_at),
    updated_at: date(raw.updated_at),
  };
}

function revive(row: UserRow | undefined): UserRow | undefined {
  if (!row) return undefined;
  row.identities = (row.identities as unknown as Record<string, unknown>[]).map(reviveIdentity);
  return row;
}

export async function findUserById(db: Db, id: string, lock = false): Promise<UserRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const { rows } = await db.query<UserRow>(`select ${userColumns} from auth.users u where u.id = $1${lock ? " for update of u" : ""}`, [
    id,
  ]);
  return revive(rows[0]);
}

/** The user and whether the session (if any) still exists, in one round trip: GET /user's hot path. */
export async function findUserWithSession(
  db: Db,
  id: string,
  sessionId: string | undefined,
): Promise<{ user?: UserRow; sessionFound: boolean }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return { sessionFound: false };
  const validSession = sessionId && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId) ? sessionId : null;
  const { rows } = await db.query<UserRow & { session_found: boolean }>(
    `select ${userColumns}, exists (select 1 from auth.sessions s where s.id = $2 and s.user_id = u.id) as session_found from auth.users u where u.id = $1`,
    [id, validSession],
  );
  const row = rows[0];
  return { user: revive(row), sessionFound: Boolean(row?.session_found) };
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${userColumns} from auth.users u where lower(u.email) = lower($1) and u.is_sso_user = false and u.deleted_at is null limit 1`,
    [email],
  );
  return revive(rows[0]);
}

/** The user whose pending token (one of GoTrue's token columns) equals `token`. */
export async function findUserByToken(
  db: Db,
  column: "confirmation_token" | "recovery_token" | "email_change_token_new" | "email_change_token_current",
  token: string,
): Promise<UserRow | undefined> {
  if (!token) return undefined;
  const { rows } = await db.query<UserRow>(`select ${userColumns} from auth.users u where u.${column} = $1 limit 1`, [token]);
  return revive(rows[0]);
}

export interface NewUser {
  id?: string;
  email: string | null;
  encryptedPassword: string | null;
  aud?: string;
  role?: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  emailConfirmed: boolean;
  invited?: boolean;
  anonymous?: boolean;
}

/** Inserts the auth.users row (so the project's triggers fire) and returns it freshly read back. */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const id = user.id ?? randomUUID();
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
       email_change_token_new, email_change, is_sso_user, is_anonymous)
     values ($1, $2, $3, $4, $5, $6, case when $7 then now() end, case when $8 then now() end, $9, $10, now(), now(), '', '', '', '', false, $11)`,
    [
      instanceId,
      id,
      user.aud ?? "authenticated",
      user.role ?? "authenticated",
      user.email,
      user.encryptedPassword ?? "",
      user.emailConfirmed,
      Boolean(user.invited),
      user.appMetadata,
      user.userMetadata,
      Boolean(user.anonymous),
    ],
  );
  return (await findUserById(db, id))!;
}

export async function insertIdentity(
  db: Db,
  userId: string,
  provider: string,
  providerId: string,
  identityData: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now(), now())`,
    [providerId, userId, identityData, provider],
  );
}

/** GoTrue's email identity: provider_id is the user id, identity_data holds sub and email. */
export async function insertEmailIdentity(db: Db, user: UserRow, data: Record<string, unknown> = {}): Promise<void> {
  await insertIdentity(db, user.id, "email", user.id, {
    ...data,
    sub: user.id,
    email: user.email,
    email_verified: false,
    phone_verified: false,
  });
}

export function isConfirmed(user: UserRow): boolean {
  return Boolean(user.email_confirmed_at || user.phone_confirmed_at);
}

export function isBanned(user: UserRow): boolean {
  return Boolean(user.banned_until && user.banned_until.getTime() > Date.now());
}

const iso = (value: Date | null) => (value ? value.toISOString() : undefined);

function identityJson(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: identity.email ?? undefined,
  };
}

/** The user object GoTrue returns (models.User's JSON): empty optional fields are omitted. */
export function userJson(user: UserRow): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? "",
    role: user.role ?? "",
    email: user.email ?? "",
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: user.email_change ? iso(user.email_change_sent_at) : undefined,
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities.map(identityJson),
    factors: user.factors.length ? user.factors : undefined,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

/** Adds a provider to app_metadata.providers (GoTrue keeps the first as app_metadata.provider). */
export async function addProvider(db: Db, user: UserRow, provider: string): Promise<void> {
  const meta = { ...(user.raw_app_meta_data ?? {}) };
  const providers = Array.isArray(meta.providers) ? (meta.providers as string[]) : [];
  if (providers.includes(provider)) return;
  meta.providers = [...providers, provider];
  meta.provider ??= provider;
  await db.query("update auth.users set raw_app_meta_data = $2, updated_at = now() where id = $1", [user.id, meta]);
}

/** user_metadata updates merge key by key; a null value removes the key (GoTrue's UpdateUserMetaData). */
export function mergeMetadata(current: Record<string, unknown> | null, update: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
