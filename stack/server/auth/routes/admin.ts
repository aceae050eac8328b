// GoTrue's admin routes: /admin/users (and a user's factors), /admin/generate_link, and POST
// /invite. Every one requires the service role.
import { createUser, deleteUser, generateLink, inviteUser, listUsers, loadTarget, paginate, updateUser, uuidPattern } from "../admin.ts";
import { featureDisabled } from "../disabled.ts";
import { AuthError, badRequest, notFound } from "../errors.ts";
import { deleteUserFactor, updateUserFactor } from "../factors.ts";
import { deleteClient, getClient, listClients, regenerateSecret, registerClient, updateClient } from "../oauth-clients.ts";
import { adminDeletePasskey, listPasskeys } from "../passkeys.ts";
import { isRedirectAllowed } from "../redirect.ts";
import { booleanField, objectField, readBody, readParams, stringField } from "../request.ts";
import {
  type AuthService,
  type Call,
  type RouteGroup,
  checkPasswordStrength,
  methodOf,
  ok,
  redirectTo,
  requireAdmin,
  validateEmail,
} from "../service.ts";
import { type UserRow, userJson } from "../users.ts";

/** POST /admin/users */
async function create(svc: AuthService, call: Call): Promise<void> {
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
  const user = await createUser(svc, { email, password, userMetadata, appMetadata, emailConfirm, id, ban, role });
  ok(call, userJson(user));
}

/** GET /admin/users?page=&per_page= with X-Total-Count and Link headers, as auth-js paginates. */
async function list(svc: AuthService, call: Call): Promise<void> {
  const { page: pageParam, perPage: perPageParam } = paginate(call.url);
  const page = Math.max(1, pageParam);
  const perPage = Math.min(1000, Math.max(1, perPageParam));
  const { users, total } = await listUsers(svc, page, perPage);
  const last = Math.max(1, Math.ceil(total / perPage));
  const base = `${svc.settings.externalUrl}/admin/users`;
  const links = [`<${base}?page=${last}&per_page=${perPage}>; rel="last"`];
  if (page < last) links.unshift(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  const body = JSON.stringify({ users: users.map(userJson), aud: "authenticated" });
  call.res.writeHead(200, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Total-Count": String(total),
    Link: links.join(", "),
  });
  call.res.end(body);
}

/** PUT /admin/users/{id} */
async function update(svc: AuthService, call: Call, id: string): Promise<void> {
  const params = await readParams(call.req);
  ok(call, userJson(await updateUser(svc, id, params)));
}

/** DELETE /admin/users/{id} ({should_soft_delete}): 200 with an empty object, as GoTrue answers. */
async function remove(svc: AuthService, call: Call, id: string): Promise<void> {
  const params = await readParams(call.req);
  await deleteUser(svc, call.req, id, booleanField(params, "should_soft_delete") ?? false);
  ok(call, {});
}

/** POST /admin/generate_link {type, email, password, data, new_email, redirect_to} */
async function link(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  const type = stringField(params, "type");
  const email = validateEmail(stringField(params, "email"));
  const password = stringField(params, "password");
  const data = objectField(params, "data") ?? {};
  const asked = stringField(params, "redirect_to");
  const redirect = asked && isRedirectAllowed(svc.settings, asked) ? asked : redirectTo(svc, call);
  ok(
    call,
    await generateLink(svc, {
      type,
      email,
      password,
      data,
      redirectTo: redirect,
      newEmail: () => validateEmail(stringField(params, "new_email")),
    }),
  );
}

/** /admin/users/{id}/factors[/{factor_id}]: list, update (friendly_name, phone) and delete a user's factors. */
async function userFactors(svc: AuthService, call: Call, user: UserRow, rest: string): Promise<void> {
  const method = methodOf(call);
  if (rest === "" && method === "GET") return ok(call, user.factors);
  const match = /^\/([^/]+)$/.exec(rest);
  if (!match) throw notFound("not_found", "Not Found");
  const id = decodeURIComponent(match[1]);
  if (method === "DELETE") return ok(call, await deleteUserFactor(svc, call.req, user, id));
  if (method === "PUT") {
    const params = await readParams(call.req);
    const friendlyName = stringField(params, "friendly_name");
    const phone = stringField(params, "phone");
    return ok(call, await updateUserFactor(svc, call.req, user, id, friendlyName, phone));
  }
  throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
}

/** /admin/users/{id}/passkeys[/{passkey_id}]: list a user's passkeys, delete one (204). */
async function userPasskeys(svc: AuthService, call: Call, user: UserRow, id: string | undefined): Promise<void> {
  const method = methodOf(call);
  if (id === undefined && method === "GET") return ok(call, await listPasskeys(svc.pool, user.id));
  if (id !== undefined && method === "DELETE") {
    await adminDeletePasskey(svc.pool, call.req, user, decodeURIComponent(id));
    call.res.writeHead(204);
    return void call.res.end();
  }
  throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
}

/**
 * /admin/oauth/clients[/{client_id}[/regenerate_secret]]: the OAuth 2.1 server's client registry.
 * Served whatever [auth.oauth_server] says (GoTrue serves it only with the server on; the stack
 * runs none of the server's flows, so the switch only names them).
 */
async function oauthClients(svc: AuthService, call: Call, rest: string): Promise<void> {
  const method = methodOf(call);
  const path = rest.replace(/\/+$/, "");
  if (path === "") {
    if (method === "POST") return ok(call, await registerClient(svc.pool, await readBody(call.req)), 201);
    if (method === "GET") return ok(call, await listClients(svc.pool));
    throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
  }
  const match = /^\/([^/]+)(\/regenerate_secret)?$/.exec(path);
  if (!match) throw notFound("not_found", "Not Found");
  const id = decodeURIComponent(match[1]);
  if (match[2]) {
    if (method === "POST") return ok(call, await regenerateSecret(svc.pool, id));
  } else if (method === "GET") {
    return ok(call, await getClient(svc.pool, id));
  } else if (method === "PUT") {
    return ok(call, await updateClient(svc.pool, id, await readBody(call.req)));
  } else if (method === "DELETE") {
    await deleteClient(svc.pool, id);
    call.res.writeHead(204);
    return void call.res.end();
  }
  throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
}

/** The routes below /admin. */
async function admin(svc: AuthService, call: Call, rest: string): Promise<void> {
  requireAdmin(call);
  const method = methodOf(call);
  if (rest === "/generate_link" && method === "POST") return await link(svc, call);
  if (rest === "/users" && method === "POST") return await create(svc, call);
  if (rest === "/users" && method === "GET") return await list(svc, call);
  if (rest === "/oauth/clients" || rest.startsWith("/oauth/clients/"))
    return await oauthClients(svc, call, rest.slice("/oauth/clients".length));
  if (rest === "/custom-providers" || rest.startsWith("/custom-providers/")) throw featureDisabled("Custom OAuth providers are disabled");
  const passkeyRoute = /^\/users\/([^/]+)\/passkeys(?:\/([^/]+))?\/?$/.exec(rest);
  if (passkeyRoute) return await userPasskeys(svc, call, await loadTarget(svc.pool, decodeURIComponent(passkeyRoute[1])), passkeyRoute[2]);
  const factorRoute = /^\/users\/([^/]+)\/factors(\/[^/]+)?$/.exec(rest);
  if (factorRoute)
    return await userFactors(svc, call, await loadTarget(svc.pool, decodeURIComponent(factorRoute[1])), factorRoute[2] ?? "");
  const match = /^\/users\/([^/]+)$/.exec(rest);
  if (match) {
    const id = decodeURIComponent(match[1]);
    if (method === "GET") return ok(call, userJson(await loadTarget(svc.pool, id)));
    if (method === "PUT") return await update(svc, call, id);
    if (method === "DELETE") return await remove(svc, call, id);
  }
  throw notFound("not_found", "Not Found");
}

/** POST /invite {email, data}: creates the user when needed and emails the invite template. */
async function invite(svc: AuthService, call: Call): Promise<void> {
  requireAdmin(call);
  const params = await readParams(call.req);
  const email = validateEmail(stringField(params, "email"));
  const data = objectField(params, "data") ?? {};
  ok(call, userJson(await inviteUser(svc, email, data, redirectTo(svc, call))));
}

export const adminRoutes: RouteGroup = { paths: { "/invite": { POST: invite } }, below: { "/admin": admin } };
