// GoTrue's POST /logout.
import { audit } from "../audit.ts";
import { badRequest } from "../errors.ts";
import { type AuthService, type Call, type RouteGroup, requireUser } from "../service.ts";
import { type LogoutScope, logout } from "../sessions.ts";

/** POST /logout?scope=global|local|others: 204, the chosen sessions ended. */
async function logoutRoute(svc: AuthService, call: Call): Promise<void> {
  const caller = await requireUser(svc, call);
  const scope = (call.url.searchParams.get("scope") || "global") as LogoutScope;
  if (!["global", "local", "others"].includes(scope)) throw badRequest("validation_failed", `Unsupported logout scope "${scope}"`);
  // A token without a session (minted elsewhere) ends every session of the user, as GoTrue does.
  await logout(svc.pool, caller.user.id, caller.sessionId, caller.sessionId ? scope : "global");
  await audit(svc.pool, call.req, caller.user, "logout");
  call.res.writeHead(204);
  call.res.end();
}

export const logoutRoutes: RouteGroup = { paths: { "/logout": { POST: logoutRoute } } };
