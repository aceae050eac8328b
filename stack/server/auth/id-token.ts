import { badRequest, OAuthError } from "./errors.ts";
import { booleanField, readParams, stringField } from "./request.ts";
import { type AuthService, type Call, requireUser } from "./service.ts";

/** The issuers GoTrue knows for its built-in OIDC providers. */
const issuers: Record<string, string> = {
  google: "https://accounts.google.com",
  facebook: "https://www.facebook.com",
  kakao: "https://kauth.kakao.com",
  vercel_marketplace: "https://marketplace.vercel.com",
  snapchat: "https://accounts.snapchat.com/accounts/oauth2/token",
};
const appleIssuers = ["https://appleid.apple.com", "https://account.apple.com"];
const azureIssuer = /^https:\/\/login[.]microsoftonline[.]com\/([^/]+)\/v2[.]0\/?$/;

/** Go's %q for the strings these messages quote. */
const quote = (value: string) => JSON.stringify(value);

/** The unverified `iss` of an ID token, read as GoTrue reads it to pick Apple's or Azure's issuer. */
function detectIssuer(idToken: string, provider: string): string {
  const parts = idToken.split(".");
  const fail = () => badRequest("validation_failed", `Unable to detect issuer in ID token for ${provider} provider`);
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]*$/.test(parts[1])) throw fail();
  try {
    const payload = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as { iss?: unknown };
    return typeof payload?.iss === "string" ? payload.iss : "";
  } catch {
    throw fail();
  }
}

/**
 * The issuer GoTrue's getProvider settles on for the request, or the error it answers with. Every
 * provider is off in the stack (and no custom OIDC provider or allowed issuer is configured), so
 * a request that gets past parameter checks ends in "not enabled" or "not allowed".
 */
function providerError(provider: string, issuer: string, idToken: string): Error {
  if (provider === "apple" || appleIssuers.includes(issuer)) {
    const detected = detectIssuer(idToken, "Apple");
    if (!appleIssuers.includes(detected))
      return badRequest("validation_failed", "Detected ID token issuer is not an Apple ID token issuer");
    if (issuer && issuer !== detected) return badRequest("validation_failed", "Provided issuer does not match ID token issuer");
    return notEnabled(detected);
  }
  if (provider === "google" || issuer === issuers.google) return notEnabled(issuers.google);
  if (provider === "azure" || azureIssuer.test(issuer)) {
    const detected = detectIssuer(idToken, "Azure");
    if (!detected.startsWith("https://login.microsoftonline.com/") && !detected.startsWith("https://sts.windows.net/")) {
      return badRequest("validation_failed", "Detected ID token issuer is not an Azure ID token issuer");
    }
    if (issuer && issuer !== detected) return badRequest("validation_failed", "Provided issuer does not match ID token issuer");
    return notEnabled(detected);
  }
  if (provider === "facebook" || issuer === issuers.facebook) return notEnabled(issuers.facebook);
  // Keycloak's issuer is its configured URL, which is empty while the provider is off.
  if (provider === "keycloak") return notEnabled("");
  for (const name of ["kakao", "vercel_marketplace", "snapchat"])
    if (provider === name || issuer === issuers[name]) return notEnabled(issuers[name]);
  if (provider.startsWith("custom:")) return badRequest("validation_failed", "Custom OAuth providers are disabled");
  return badRequest("validation_failed", `Custom OIDC provider ${quote(provider)} not allowed`);
}

const notEnabled = (issuer: string) => badRequest("provider_disabled", `Provider (issuer ${quote(issuer)}) is not enabled`);

/** POST /token?grant_type=id_token (signInWithIdToken, linkIdentity with an ID token). */
export async function idTokenGrant(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  const idToken = stringField(params, "id_token");
  const provider = stringField(params, "provider");
  const clientId = stringField(params, "client_id");
  const issuer = stringField(params, "issuer");
  stringField(params, "nonce");
  stringField(params, "access_token");
  if (!idToken) throw new OAuthError("invalid request", "id_token required");
  if (!provider && (!clientId || !issuer)) throw new OAuthError("invalid request", "provider or client_id and issuer required");
  if (booleanField(params, "link_identity")) {
    if (!call.req.headers.authorization)
      throw new OAuthError("invalid request", "Linking requires a valid user access token in Authorization");
    await requireUser(svc, call);
  }
  throw providerError(provider, issuer, idToken);
}
