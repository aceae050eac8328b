// Features the stack leaves off, answered as GoTrue answers with them switched off: the OAuth 2.1
// server's flows (its discovery document, its routes, a user's grants).
import { oauthServerDisabled } from "../disabled.ts";
import { type AuthService, type Call, type RouteGroup, requireUser } from "../service.ts";

/** GoTrue authenticates the caller before it finds the OAuth server off. */
async function userGrants(svc: AuthService, call: Call): Promise<void> {
  await requireUser(svc, call);
  await oauthServerDisabled(svc, call);
}

export const disabledRoutes: RouteGroup = {
  paths: { "/.well-known/oauth-authorization-server": { GET: oauthServerDisabled } },
  below: { "/oauth": oauthServerDisabled, "/user/oauth/grants": userGrants },
};
