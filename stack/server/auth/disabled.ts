import { AuthError, badRequest, notFound } from "./errors.ts";
import type { Handler } from "./service.ts";
import { oauthProviders } from "./settings.ts";

/**
 * Features the stack does not serve, answered as GoTrue answers when they are switched off in
 * config.toml (its require…Enabled middlewares guard every path below the feature's prefix, for
 * every method): a 404 carrying the feature's error_code, never a bare "Not Found".
 */
export const featureDisabled = (message: string) => notFound("feature_disabled", message);

const refuse =
  (error: () => AuthError): Handler =>
  async () => {
    throw error();
  };

/** /sso, /sso/saml/metadata, /sso/saml/acs: SAML is off in `supabase start` (no [auth.saml] switch). */
export const samlDisabled = refuse(() => notFound("saml_provider_disabled", "SAML 2.0 is disabled"));

/** /passkeys/…: [auth.passkey] is off. */
export const passkeysDisabled = refuse(() => notFound("passkey_disabled", "Passkeys are disabled"));

/** /oauth/… and /.well-known/oauth-authorization-server: [auth.oauth_server] is off. */
export const oauthServerDisabled = refuse(() => featureDisabled("OAuth server is disabled"));

/** GoTrue's answer when an OAuth flow (sign-in or identity linking) names a provider that is off or unknown. */
export function unsupportedProvider(provider: string) {
  const reason = oauthProviders.includes(provider.toLowerCase()) ? "provider is not enabled" : `Provider ${provider} could not be found`;
  return badRequest("validation_failed", `Unsupported provider: ${reason}`);
}
