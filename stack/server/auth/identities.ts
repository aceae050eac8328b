import { audit } from "./audit.ts";
import { forbidden, notFound, unprocessable } from "./errors.ts";
import { type AuthService, type Call, type Caller, ok, requireUser } from "./service.ts";
import { unsupportedProvider } from "./user-routes.ts";
import { findUserById, withTransaction } from "./users.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GoTrue guards /user/identities/… with authentication first, then [auth] enable_manual_linking. */
async function linkingCaller(svc: AuthService, call: Call): Promise<Caller> {
  const caller = await requireUser(svc, call);
  if (!svc.settings.enableManualLinking) throw notFound("manual_linking_disabled", "Manual linking is disabled");
  return caller;
}

/**
 * GET /user/identities/authorize?provider=…: starts linking an OAuth identity. The stack serves no
 * OAuth provider, so this ends where GoTrue ends for a provider that is not enabled.
 */
export async function linkIdentity(svc: AuthService, call: Call): Promise<void> {
  await linkingCaller(svc, call);
  throw unsupportedProvider(call.url.searchParams.get("provider") ?? "");
}

/** The audience the request acts for: X-JWT-AUD, else the configured one. */
function requestAudience(call: Call): string {
  const header = call.req.headers["x-jwt-aud"];
  return (Array.isArray(header) ? header[0] : header) || "authenticated";
}

/** DELETE /user/identities/{id}: unlinks one of the caller's identities, never the last one. */
export async function unlinkIdentity(svc: AuthService, call: Call, identityId: string): Promise<void> {
  const caller = await linkingCaller(svc, call);
  if (!uuidPattern.test(identityId)) throw notFound("validation_failed", "identity_id must be an UUID");
  const aud = Array.isArray(caller.claims.aud) ? caller.claims.aud[0] : caller.claims.aud;
  if (aud !== requestAudience(call)) throw forbidden("unexpected_audience", "Token audience doesn't match request audience");
  await withTransaction(svc.pool, async (db) => {
    const user = (await findUserById(db, caller.user.id, true))!;
    if (user.identities.length <= 1) throw unprocessable("single_identity_not_deletable", "User must have at least 1 identity after unlinking");
    const identity = user.identities.find((i) => i.id.toLowerCase() === identityId.toLowerCase());
    if (!identity) throw unprocessable("identity_not_found", "Identity doesn't exist");
    await audit(db, call.req, user, "identity_unlinked", { identity_id: identity.id, provider: identity.provider, provider_id: identity.provider_id });
    await db.query("delete from auth.identities where id = $1", [identity.id]);
    if (identity.provider === "phone") await db.query("update auth.users set phone = null, phone_confirmed_at = null, updated_at = now() where id = $1", [user.id]);
    // GoTrue's UpdateAppMetaDataProviders: the providers of the identities that remain.
    const providers = [...new Set(user.identities.filter((i) => i.id !== identity.id).map((i) => i.provider))];
    await db.query("update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('providers', $2::jsonb), updated_at = now() where id = $1", [
      user.id,
      JSON.stringify(providers),
    ]);
  });
  ok(call, {});
}
