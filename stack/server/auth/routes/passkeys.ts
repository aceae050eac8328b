// GoTrue's /passkeys routes: sign-in with a passkey (no session needed), and the signed-in user's
// registration, list, rename and delete. All of them answer passkey_disabled when [auth.passkey]
// turns passkeys off.
import { passkeysDisabled } from "../disabled.ts";
import { AuthError, forbidden, notFound } from "../errors.ts";
import {
  authenticationOptions,
  authenticationVerify,
  deletePasskey,
  listPasskeys,
  registrationOptions,
  registrationVerify,
  renamePasskey,
} from "../passkeys.ts";
import { readParams } from "../request.ts";
import { type AuthService, type Call, type RouteGroup, methodOf, ok, requireUser } from "../service.ts";

/** GoTrue's requireAuthentication then requireNotAnonymous (registration only). */
async function registeredCaller(svc: AuthService, call: Call) {
  const caller = await requireUser(svc, call);
  if (caller.claims.is_anonymous === true) throw forbidden("no_authorization", "Anonymous user not allowed to perform these actions");
  return caller;
}

const methodNotAllowed = () => new AuthError(405, "method_not_allowed", "Method Not Allowed");

async function passkeys(svc: AuthService, call: Call, rest: string): Promise<void> {
  if (!svc.settings.passkeyEnabled) return await passkeysDisabled(svc, call);
  const method = methodOf(call);
  const path = rest.replace(/\/+$/, "");
  if (path === "/authentication/options") {
    if (method !== "POST") throw methodNotAllowed();
    return ok(call, await authenticationOptions(svc.pool, svc.settings));
  }
  if (path === "/authentication/verify") {
    if (method !== "POST") throw methodNotAllowed();
    return ok(call, await authenticationVerify(svc.pool, svc.settings, call.req, await readParams(call.req)));
  }
  if (path === "/registration/options" || path === "/registration/verify") {
    if (method !== "POST") throw methodNotAllowed();
    const caller = await registeredCaller(svc, call);
    if (path === "/registration/options") return ok(call, await registrationOptions(svc.pool, svc.settings, caller));
    return ok(call, await registrationVerify(svc.pool, svc.settings, call.req, caller, await readParams(call.req)));
  }
  if (path === "") {
    if (method !== "GET" && method !== "HEAD") throw methodNotAllowed();
    const caller = await requireUser(svc, call);
    return ok(call, await listPasskeys(svc.pool, caller.user.id));
  }
  const match = /^\/([^/]+)$/.exec(path);
  if (!match) throw notFound("not_found", "Not Found");
  const id = decodeURIComponent(match[1]);
  if (method === "PATCH") {
    const caller = await requireUser(svc, call);
    return ok(call, await renamePasskey(svc.pool, call.req, caller, id, await readParams(call.req)));
  }
  if (method === "DELETE") {
    const caller = await requireUser(svc, call);
    await deletePasskey(svc.pool, call.req, caller, id);
    call.res.writeHead(204);
    return void call.res.end();
  }
  throw methodNotAllowed();
}

export const passkeyRoutes: RouteGroup = { below: { "/passkeys": passkeys } };
