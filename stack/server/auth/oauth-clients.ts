import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";
import { randomUUID } from "./crypto.ts";
import { badRequest, notFound } from "./errors.ts";
import { uuidPattern } from "./factors.ts";

// The OAuth 2.1 server's client registry (GoTrue's /admin/oauth/clients, routes/admin.ts): clients
// in auth.oauth_clients, registered by the service role, with GoTrue's validation and messages.
// Secrets are shown once (on registration and regeneration); only their SHA-256 is kept.

const grantTypes = ["authorization_code", "refresh_token"];
const authMethods = ["none", "client_secret_basic", "client_secret_post"];
/** Go's %v of a string slice. */
const goList = (items: string[]) => `[${items.join(" ")}]`;

interface ClientRow {
  id: string;
  client_secret_hash: string | null;
  registration_type: string;
  client_type: "public" | "confidential";
  token_endpoint_auth_method: string;
  redirect_uris: string;
  grant_types: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  created_at: Date;
  updated_at: Date;
}

const columns =
  "id, client_secret_hash, registration_type, client_type, token_endpoint_auth_method, redirect_uris, grant_types, client_name, client_uri, logo_uri, created_at, updated_at";

/** GoTrue's OAuthServerClientResponse: empty strings and lists are left out; response_types is always ["code"]. */
function clientJson(row: ClientRow, secret?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { client_id: row.id };
  if (secret) body.client_secret = secret;
  body.client_type = row.client_type;
  const redirectUris = row.redirect_uris ? row.redirect_uris.split(",") : [];
  if (redirectUris.length) body.redirect_uris = redirectUris;
  if (row.token_endpoint_auth_method) body.token_endpoint_auth_method = row.token_endpoint_auth_method;
  const grants = row.grant_types ? row.grant_types.split(",") : [];
  if (grants.length) body.grant_types = grants;
  body.response_types = ["code"];
  if (row.client_name) body.client_name = row.client_name;
  if (row.client_uri) body.client_uri = row.client_uri;
  if (row.logo_uri) body.logo_uri = row.logo_uri;
  body.registration_type = row.registration_type;
  body.created_at = row.created_at.toISOString();
  body.updated_at = row.updated_at.toISOString();
  return body;
}

/** A validation failure: GoTrue's own message (a plain error's text, unprefixed). */
class Invalid extends Error {}
/** A validation failure GoTrue raises as an HTTP error: registration repeats its text after "400: ". */
class InvalidHttp extends Error {}

/** GoTrue's validateRedirectURI (Go's url.Parse read with WHATWG URLs). */
function redirectUriProblem(uri: string): string | undefined {
  if (uri === "") return "redirect URI cannot be empty";
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri)?.[1];
  if (!scheme) return "must have scheme and host";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "invalid URL format";
  }
  if (!url.host) return "must have scheme and host";
  if (["javascript", "data", "file", "vbscript", "about", "blob"].includes(scheme.toLowerCase()))
    return `scheme '${scheme}' is not allowed for security reasons`;
  if (scheme === "http" && !["localhost", "127.0.0.1", "::1"].includes(url.hostname.replace(/^\[|\]$/g, "")))
    return "HTTP scheme only allowed for localhost";
  if (url.hash.length > 1) return "fragment not allowed in redirect URI";
  return undefined;
}

function checkRedirectUris(uris: string[] | undefined, required: boolean): void {
  if (required && (!uris || uris.length === 0)) throw new InvalidHttp("redirect_uris is required");
  if (!uris || uris.length === 0) throw new InvalidHttp("redirect_uris cannot be empty");
  if (uris.length > 10) throw new InvalidHttp("redirect_uris cannot exceed 10 items");
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidHttp(`invalid redirect_uri '${uri}': ${problem}`);
  }
}

function checkGrantTypes(grants: string[]): void {
  if (grants.length === 0) throw new InvalidHttp("grant_types cannot be empty");
  if (grants.some((grant) => !grantTypes.includes(grant)))
    throw new InvalidHttp("grant_types must only contain 'authorization_code' and/or 'refresh_token'");
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path. */
function requestUri(value: string): boolean {
  if (value.startsWith("/")) return true;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function checkText(name: "client_name" | "client_uri" | "logo_uri", value: string | undefined): void {
  if (!value) return;
  if (name === "client_name") {
    if (Buffer.byteLength(value) > 1024) throw new InvalidHttp("client_name cannot exceed 1024 characters");
    return;
  }
  if (Buffer.byteLength(value) > 2048) throw new InvalidHttp(`${name} cannot exceed 2048 characters`);
  if (!requestUri(value)) throw new InvalidHttp(`${name} must be a valid URL`);
}

const invalidJson = () => badRequest("bad_json", "Invalid JSON body");

/** Go's json.Decoder into the params struct: strings and string lists, or the body is "Invalid JSON body". */
function decode(body: string, fields: { strings: string[]; lists: string[] }): Record<string, string | string[] | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw invalidJson();
  }
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidJson();
  const params: Record<string, string | string[] | undefined> = {};
  for (const name of fields.strings) {
    const field = (value as Record<string, unknown>)[name];
    if (field === undefined || field === null) continue;
    if (typeof field !== "string") throw invalidJson();
    params[name] = field;
  }
  for (const name of fields.lists) {
    const field = (value as Record<string, unknown>)[name];
    if (field === undefined || field === null) continue;
    if (!Array.isArray(field) || field.some((item) => typeof item !== "string")) throw invalidJson();
    params[name] = field as string[];
  }
  return params;
}

const textFields = ["client_name", "client_uri", "logo_uri"] as const;

function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: createHash("sha256").update(secret).digest("base64url") };
}

/** POST /admin/oauth/clients: a manually registered client; 201 with its secret when confidential. */
export async function registerClient(pool: pg.Pool, body: string): Promise<Record<string, unknown>> {
  const params = decode(body, {
    strings: ["client_type", "token_endpoint_auth_method", "client_name", "client_uri", "logo_uri"],
    lists: ["redirect_uris", "grant_types"],
  });
  const clientType = (params.client_type as string | undefined) ?? "";
  const method = (params.token_endpoint_auth_method as string | undefined) ?? "";
  try {
    checkRedirectUris(params.redirect_uris as string[] | undefined, true);
    const grants = params.grant_types as string[] | undefined;
    if (grants && grants.length > 0) checkGrantTypes(grants);
    for (const name of textFields) checkText(name, params[name] as string | undefined);
    if (clientType && clientType !== "public" && clientType !== "confidential")
      throw new InvalidHttp("client_type must be 'public' or 'confidential'");
    if (method && !authMethods.includes(method)) throw new InvalidHttp(`token_endpoint_auth_method must be one of: ${goList(authMethods)}`);
    if (clientType && method) {
      const expected = method === "none" ? "public" : "confidential";
      if (clientType !== expected)
        throw new Invalid(
          `client_type '${clientType}' is inconsistent with token_endpoint_auth_method '${method}' (expected client_type '${expected}')`,
        );
    }
  } catch (error) {
    // GoTrue wraps the validation error in a new one whose message is the first's text.
    if (error instanceof InvalidHttp) throw badRequest("validation_failed", `400: ${error.message}`);
    if (error instanceof Invalid) throw badRequest("validation_failed", error.message);
    throw error;
  }
  const type = clientType || (method === "none" ? "public" : "confidential");
  const authMethod = method || (type === "public" ? "none" : "client_secret_basic");
  const grants = (params.grant_types as string[] | undefined)?.length ? (params.grant_types as string[]) : grantTypes;
  const secret = type === "confidential" ? newSecret() : undefined;
  const { rows } = await pool.query<ClientRow>(
    `insert into auth.oauth_clients (id, client_secret_hash, registration_type, client_type, token_endpoint_auth_method, redirect_uris,
       grant_types, client_name, client_uri, logo_uri, created_at, updated_at)
     values ($1, $2, 'manual', $3, $4, $5, $6, $7, $8, $9, now(), now()) returning ${columns}`,
    [
      randomUUID(),
      secret?.hash ?? null,
      type,
      authMethod,
      (params.redirect_uris as string[]).join(","),
      grants.join(","),
      params.client_name || null,
      params.client_uri || null,
      params.logo_uri || null,
    ],
  );
  return clientJson(rows[0], secret?.secret);
}

/** GET /admin/oauth/clients: every client not deleted, newest first (`clients` is left out when there are none). */
export async function listClients(pool: pg.Pool): Promise<Record<string, unknown>> {
  const { rows } = await pool.query<ClientRow>(
    `select ${columns} from auth.oauth_clients where deleted_at is null order by created_at desc`,
  );
  return rows.length ? { clients: rows.map((row) => clientJson(row)) } : {};
}

/** GoTrue's LoadOAuthServerClient. */
async function loadClient(pool: pg.Pool, id: string): Promise<ClientRow> {
  if (!uuidPattern.test(id)) throw badRequest("validation_failed", "invalid client_id format");
  const { rows } = await pool.query<ClientRow>(`select ${columns} from auth.oauth_clients where id = $1 and deleted_at is null`, [id]);
  if (!rows[0]) throw notFound("oauth_client_not_found", "OAuth client not found");
  return rows[0];
}

/** GET /admin/oauth/clients/{client_id} */
export async function getClient(pool: pg.Pool, id: string): Promise<Record<string, unknown>> {
  return clientJson(await loadClient(pool, id));
}

/** PUT /admin/oauth/clients/{client_id}: the fields given, validated as GoTrue does. */
export async function updateClient(pool: pg.Pool, id: string, body: string): Promise<Record<string, unknown>> {
  const client = await loadClient(pool, id);
  const params = decode(body, {
    strings: ["client_name", "client_uri", "logo_uri", "token_endpoint_auth_method"],
    lists: ["redirect_uris", "grant_types"],
  });
  if (Object.values(params).every((value) => value === undefined)) throw badRequest("validation_failed", "No fields provided for update");
  const method = params.token_endpoint_auth_method as string | undefined;
  try {
    if (params.redirect_uris) checkRedirectUris(params.redirect_uris as string[], false);
    if (params.grant_types) checkGrantTypes(params.grant_types as string[]);
    for (const name of textFields) checkText(name, params[name] as string | undefined);
    if (method !== undefined && !authMethods.includes(method))
      throw new InvalidHttp(`invalid token_endpoint_auth_method: must be one of ${goList(authMethods)}`);
  } catch (error) {
    if (error instanceof InvalidHttp) throw badRequest("validation_failed", error.message);
    throw error;
  }
  if (method !== undefined) {
    const valid = client.client_type === "public" ? ["none"] : ["client_secret_basic", "client_secret_post"];
    if (!valid.includes(method))
      throw badRequest(
        "validation_failed",
        `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'; valid methods: ${goList(valid)}`,
      );
  }
  const { rows } = await pool.query<ClientRow>(
    `update auth.oauth_clients set
       redirect_uris = coalesce($2, redirect_uris), grant_types = coalesce($3, grant_types),
       client_name = case when $4::boolean then nullif($5, '') else client_name end,
       client_uri = case when $6::boolean then nullif($7, '') else client_uri end,
       logo_uri = case when $8::boolean then nullif($9, '') else logo_uri end,
       token_endpoint_auth_method = coalesce($10, token_endpoint_auth_method), updated_at = now()
     where id = $1 and deleted_at is null returning ${columns}`,
    [
      client.id,
      (params.redirect_uris as string[] | undefined)?.join(",") ?? null,
      (params.grant_types as string[] | undefined)?.join(",") ?? null,
      params.client_name !== undefined,
      params.client_name ?? null,
      params.client_uri !== undefined,
      params.client_uri ?? null,
      params.logo_uri !== undefined,
      params.logo_uri ?? null,
      method ?? null,
    ],
  );
  if (!rows[0]) throw notFound("oauth_client_not_found", "OAuth client not found");
  return clientJson(rows[0]);
}

/** DELETE /admin/oauth/clients/{client_id}: soft-deleted (deleted_at), as GoTrue does. */
export async function deleteClient(pool: pg.Pool, id: string): Promise<void> {
  const client = await loadClient(pool, id);
  await pool.query("update auth.oauth_clients set deleted_at = now(), updated_at = now() where id = $1", [client.id]);
}

/** POST /admin/oauth/clients/{client_id}/regenerate_secret: confidential clients only; the old secret stops working. */
export async function regenerateSecret(pool: pg.Pool, id: string): Promise<Record<string, unknown>> {
  const client = await loadClient(pool, id);
  if (client.client_type !== "confidential") throw badRequest("validation_failed", "Cannot regenerate secret for public client");
  const { secret, hash } = newSecret();
  const { rows } = await pool.query<ClientRow>(
    `update auth.oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1 returning ${columns}`,
    [client.id, hash],
  );
  return clientJson(rows[0], secret);
}
