// GoTrue's external (OAuth provider) sign-in: GET /authorize and the provider's /callback. Every
// provider is off, so both end as GoTrue ends without one.
import { unsupportedProvider } from "../disabled.ts";
import { badRequest } from "../errors.ts";
import type { AuthService, Call, RouteGroup } from "../service.ts";

/** GET /authorize?provider=…: GoTrue's "Unsupported provider". */
async function authorize(_svc: AuthService, call: Call): Promise<void> {
  throw unsupportedProvider(call.url.searchParams.get("provider") ?? "");
}

/** GET|POST /callback: no OAuth flow can have started, so the state is always missing. */
async function callback(): Promise<void> {
  throw badRequest("bad_oauth_callback", "OAuth state parameter missing");
}

export const externalRoutes: RouteGroup = { paths: { "/authorize": { GET: authorize }, "/callback": { GET: callback, POST: callback } } };
