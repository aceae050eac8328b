import type { IncomingMessage } from "node:http";
import { unprocessable } from "./errors.ts";
import { randomUUID } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createLink } from "./links.ts";
import { type Challenge, createFlowState } from "./pkce.ts";
import type { AuthService } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { findUserByEmail, findUserById, insertEmailIdentity, insertUser, isConfirmed, userJson, withTransaction } from "./users.ts";

export interface EmailSignup {
  email: string;
  /** Hashed before the transaction, as GoTrue does: bcrypt must not hold a connection and a lock. */
  encryptedPassword: string;
  data: Record<string, unknown>;
  challenge?: Challenge;
  redirectTo: string;
}

/**
 * POST /signup with an email. With confirmations on, the answer is the user (no session) and a
 * confirmation email; signing up again with a confirmed address answers a look-alike user so
 * addresses cannot be enumerated, and with an unconfirmed one re-sends the confirmation (GoTrue's
 * behaviour). With them off, the answer is a session.
 */
export async function signUpWithEmail(svc: AuthService, req: IncomingMessage, input: EmailSignup): Promise<unknown> {
  const { settings } = svc;
  const { email, encryptedPassword, data, challenge } = input;
  const autoconfirm = !settings.email.enableConfirmations;
  const result = await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:${email}`]);
    const existing = await findUserByEmail(db, email);
    if (existing && isConfirmed(existing)) {
      await audit(db, req, existing, "user_repeated_signup", { provider: "email" });
      if (autoconfirm) throw unprocessable("user_already_exists", "User already registered");
      const now = new Date().toISOString();
      const lookalike = {
        ...userJson(existing),
        id: randomUUID(),
        role: "",
        created_at: now,
        updated_at: now,
        confirmation_sent_at: now,
        user_metadata: data,
        app_metadata: { provider: "email", providers: ["email"] },
        identities: [],
      };
      for (const key of ["last_sign_in_at", "confirmed_at", "email_confirmed_at", "recovery_sent_at", "new_email", "email_change_sent_at"])
        delete (lookalike as Record<string, unknown>)[key];
      return { body: lookalike };
    }
    let user = existing;
    if (!user) {
      user = await insertUser(db, {
        email,
        encryptedPassword,
        userMetadata: data,
        appMetadata: { provider: "email", providers: ["email"] },
        emailConfirmed: autoconfirm,
      });
      await insertEmailIdentity(db, user, data);
    }
    await audit(db, req, user, autoconfirm ? "user_signedup" : "user_confirmation_requested", { provider: "email" });
    if (autoconfirm) return { body: await issueSession(db, settings, user.id, "password", req) };
    if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
    await createLink({ db, settings, mailer: svc.mailer, redirectTo: input.redirectTo, pkce: Boolean(challenge) }, user, "signup");
    return { body: userJson((await findUserById(db, user.id))!) };
  });
  return result.body;
}

/** POST /signup with neither email nor phone: an anonymous user and its session. */
export async function signUpAnonymously(svc: AuthService, req: IncomingMessage, data: Record<string, unknown>): Promise<unknown> {
  return await withTransaction(svc.pool, async (db) => {
    const user = await insertUser(db, {
      email: null,
      encryptedPassword: "",
      userMetadata: data,
      appMetadata: {},
      emailConfirmed: false,
      anonymous: true,
    });
    await audit(db, req, user, "user_signedup", { provider: "anonymous" });
    return await issueSession(db, svc.settings, user.id, "anonymous", req);
  });
}
