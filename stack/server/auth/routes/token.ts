// GoTrue's POST /token: one handler per grant type.
import { badRequest } from "../errors.ts";
import { passwordGrant, pkceGrant, refreshGrant } from "../grants.ts";
import { idTokenGrant } from "../id-token.ts";
import type { AuthService, Call, Handler, RouteGroup } from "../service.ts";
import { web3Grant } from "../web3.ts";

const grants: Record<string, Handler> = {
  password: passwordGrant,
  refresh_token: refreshGrant,
  pkce: pkceGrant,
  web3: web3Grant,
  id_token: idTokenGrant,
};

/** POST /token?grant_type=… */
async function token(svc: AuthService, call: Call): Promise<void> {
  const grantType = call.url.searchParams.get("grant_type") ?? "";
  const grant = Object.hasOwn(grants, grantType) ? grants[grantType] : undefined;
  if (!grant) throw badRequest("invalid_credentials", "unsupported_grant_type");
  await grant(svc, call);
}

export const tokenRoutes: RouteGroup = { paths: { "/token": { POST: token } } };
