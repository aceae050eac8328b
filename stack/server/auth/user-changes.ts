import type { IncomingMessage } from "node:http";
import { badRequest, unprocessable } from "./errors.ts";
import { hashPassword, passwordMatches } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createEmailChange } from "./links.ts";
import { type Challenge, createFlowState } from "./pkce.ts";
import { type AuthService, type Caller, checkPasswordStrength, validateEmail } from "./service.ts";
import { logout } from "./sessions.ts";
import { requestPhoneChange } from "./phone.ts";
import { consumeNonce, needsReauthentication } from "./reauthenticate.ts";
import { type UserRow, findUserByEmail, findUserById, mergeMetadata, withTransaction } from "./users.ts";

/** What PUT /user asks to change; absent fields stay as they are. */
export interface UserChanges {
  data?: Record<string, unknown>;
  password?: string;
  email: string;
  phone: string;
  /** The reauthentication nonce a password change may need. */
  nonce: string;
  challenge?: Challenge;
  redirectTo: string;
}

/**
 * The caller's own changes: user_metadata (`data`, merged), password (other sessions are signed
 * out, as GoTrue does) and email (a change confirmed by link, on both addresses with
 * double_confirm_changes) and phone (confirmed by a code). Answers the user as it is now.
 */
export async function changeUser(svc: AuthService, req: IncomingMessage, caller: Caller, changes: UserChanges): Promise<UserRow> {
  const { settings } = svc;
  const { data, password, nonce, challenge, phone } = changes;
  const emailInput = changes.email;
  const redirect = changes.redirectTo;
  return await withTransaction(svc.pool, async (db) => {
    const current = (await findUserById(db, caller.user.id, true))!;
    if (password !== undefined) {
      checkPasswordStrength(settings, password);
      if (await needsReauthentication(svc, db, caller)) {
        if (!nonce) throw badRequest("reauthentication_needed", "Password update requires reauthentication");
        await consumeNonce(svc, db, current, nonce);
      }
      if (await passwordMatches(password, current.encrypted_password)) {
        throw unprocessable("same_password", "New password should be different from the old password.");
      }
      await db.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [
        current.id,
        await hashPassword(password),
      ]);
      await logout(db, current.id, caller.sessionId, "others");
      await audit(db, req, current, "user_updated_password");
    }
    if (data) {
      await db.query("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", [
        current.id,
        mergeMetadata(current.raw_user_meta_data, data),
      ]);
    }
    if (emailInput) {
      const email = validateEmail(emailInput);
      if (email !== (current.email ?? "").toLowerCase()) {
        const taken = await findUserByEmail(db, email);
        if (taken && taken.id !== current.id)
          throw unprocessable("email_exists", "A user with this email address has already been registered");
        const linkContext = { db, settings, mailer: svc.mailer, redirectTo: redirect, pkce: Boolean(challenge) };
        if (challenge) await createFlowState(db, current.id, challenge, "email_change");
        if (settings.email.enableConfirmations || current.email) {
          await createEmailChange(linkContext, (await findUserById(db, current.id))!, email);
        } else {
          await db.query("update auth.users set email = $2, updated_at = now() where id = $1", [current.id, email]);
        }
      }
    }
    if (phone) await requestPhoneChange(svc, db, current, phone);
    if (data || emailInput || phone) await audit(db, req, current, "user_modified");
    return (await findUserById(db, current.id))!;
  });
}
