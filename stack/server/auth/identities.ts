import type { IncomingMessage } from "node:http";
import { audit } from "./audit.ts";
import { unprocessable } from "./errors.ts";
import type { AuthService } from "./service.ts";
import { findUserById, withTransaction } from "./users.ts";

/**
 * Unlinks one of a user's identities (DELETE /user/identities/{id}), never the last one; a phone
 * identity takes the user's phone with it, and app_metadata.providers follows what remains.
 */
export async function unlinkIdentity(svc: AuthService, req: IncomingMessage, userId: string, identityId: string): Promise<void> {
  await withTransaction(svc.pool, async (db) => {
    const user = (await findUserById(db, userId, true))!;
    if (user.identities.length <= 1)
      throw unprocessable("single_identity_not_deletable", "User must have at least 1 identity after unlinking");
    const identity = user.identities.find((i) => i.id.toLowerCase() === identityId.toLowerCase());
    if (!identity) throw unprocessable("identity_not_found", "Identity doesn't exist");
    await audit(db, req, user, "identity_unlinked", {
      identity_id: identity.id,
      provider: identity.provider,
      provider_id: identity.provider_id,
    });
    await db.query("delete from auth.identities where id = $1", [identity.id]);
    if (identity.provider === "phone")
      await db.query("update auth.users set phone = null, phone_confirmed_at = null, updated_at = now() where id = $1", [user.id]);
    // GoTrue's UpdateAppMetaDataProviders: the providers of the identities that remain.
    const providers = [...new Set(user.identities.filter((i) => i.id !== identity.id).map((i) => i.provider))];
    await db.query(
      "update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('providers', $2::jsonb), updated_at = now() where id = $1",
      [user.id, JSON.stringify(providers)],
    );
  });
}
