import type { IncomingMessage } from "node:http";
import { randomBytes } from "node:crypto";
import { unprocessable } from "./errors.ts";
import { hashPassword } from "./crypto.ts";
import { audit } from "./audit.ts";
import { createEmailChange, createLink } from "./links.ts";
import { type Challenge, createFlowState } from "./pkce.ts";
import type { AuthService } from "./service.ts";
import { findUserByEmail, insertEmailIdentity, insertUser, isConfirmed, withTransaction } from "./users.ts";

// The emails a signed-out person asks for (routes/otp.ts): a magic link, a recovery link, a
// confirmation or email change sent again. Each answers nothing, so addresses cannot be enumerated.

export interface EmailRequest {
  email: string;
  challenge?: Challenge;
  redirectTo: string;
}

/**
 * A magic link to a confirmed user; a new or unconfirmed address is signed up (with a random
 * password) and gets the confirmation email, unless createUser is false, which GoTrue answers
 * with otp_disabled.
 */
export async function sendMagicLink(
  svc: AuthService,
  input: EmailRequest & { data: Record<string, unknown>; createUser: boolean },
): Promise<void> {
  const { settings } = svc;
  const { email, challenge } = input;
  await withTransaction(svc.pool, async (db) => {
    await db.query("select pg_advisory_xact_lock(hashtext($1))", [`signup:${email}`]);
    let user = await findUserByEmail(db, email);
    const linkContext = { db, settings, mailer: svc.mailer, redirectTo: input.redirectTo, pkce: Boolean(challenge) };
    if (!user || !isConfirmed(user)) {
      if (!user && !input.createUser) throw unprocessable("otp_disabled", "Signups not allowed for otp");
      if (!user && !settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
      if (!user) {
        user = await insertUser(db, {
          email,
          encryptedPassword: await hashPassword(randomBytes(32).toString("base64url")),
          userMetadata: input.data,
          appMetadata: { provider: "email", providers: ["email"] },
          emailConfirmed: !settings.email.enableConfirmations,
        });
        await insertEmailIdentity(db, user);
      }
      if (settings.email.enableConfirmations) {
        if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
        await createLink(linkContext, user, "signup");
        return;
      }
    }
    if (challenge) await createFlowState(db, user.id, challenge, "magiclink");
    await createLink(linkContext, user, "magiclink");
  });
}

/** A recovery link; an unknown address gets nothing. */
export async function sendRecovery(svc: AuthService, req: IncomingMessage, input: EmailRequest): Promise<void> {
  const { challenge } = input;
  await withTransaction(svc.pool, async (db) => {
    const user = await findUserByEmail(db, input.email);
    if (!user) return;
    await audit(db, req, user, "user_recovery_requested");
    if (challenge) await createFlowState(db, user.id, challenge, "recovery");
    await createLink(
      { db, settings: svc.settings, mailer: svc.mailer, redirectTo: input.redirectTo, pkce: Boolean(challenge) },
      user,
      "recovery",
    );
  });
}

/**
 * The pending signup confirmation, or the pending email change of the user with that (current)
 * address, sent again. Nothing pending, or no such user: nothing is sent.
 */
export async function resendEmail(svc: AuthService, req: IncomingMessage, type: string, input: EmailRequest): Promise<void> {
  const { challenge } = input;
  await withTransaction(svc.pool, async (db) => {
    const user = await findUserByEmail(db, input.email);
    if (!user) return;
    const linkContext = { db, settings: svc.settings, mailer: svc.mailer, redirectTo: input.redirectTo, pkce: Boolean(challenge) };
    if (type === "signup") {
      if (isConfirmed(user)) return;
      await audit(db, req, user, "user_confirmation_requested");
      if (challenge) await createFlowState(db, user.id, challenge, "email/signup");
      await createLink(linkContext, user, "signup");
    } else if (type === "email_change" && user.email_change) {
      if (challenge) await createFlowState(db, user.id, challenge, "email_change");
      await createEmailChange(linkContext, user, user.email_change);
    }
  });
}
