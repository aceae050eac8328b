import { tooManyRequests } from "./errors.ts";
import { generateOtp, randomUUID, tokenHash } from "./crypto.ts";
import type { Mailer } from "./mail.ts";
import type { AuthSettings, EmailKind } from "./settings.ts";
import type { Db, UserRow } from "./users.ts";

/** The `type` of a verification link, which decides the token column it is checked against. */
export type LinkType = "signup" | "invite" | "magiclink" | "recovery" | "email_change";

type TokenColumn = "confirmation_token" | "recovery_token" | "email_change_token_new" | "email_change_token_current";
type SentColumn = "confirmation_sent_at" | "recovery_sent_at" | "email_change_sent_at";

const columns: Record<Exclude<LinkType, "email_change">, { token: TokenColumn; sent: SentColumn; email: EmailKind }> = {
  signup: { token: "confirmation_token", sent: "confirmation_sent_at", email: "confirmation" },
  invite: { token: "confirmation_token", sent: "confirmation_sent_at", email: "invite" },
  magiclink: { token: "recovery_token", sent: "recovery_sent_at", email: "magic_link" },
  recovery: { token: "recovery_token", sent: "recovery_sent_at", email: "recovery" },
};

export interface LinkContext {
  db: Db;
  settings: AuthSettings;
  mailer: Mailer;
  /** Where the link leads after verification (already checked against the allow-list). */
  redirectTo: string;
  pkce: boolean;
}

export interface GeneratedLink {
  otp: string;
  hashedToken: string;
  actionLink: string;
}

export function actionLink(settings: AuthSettings, token: string, type: string, redirectTo: string): string {
  return `${settings.externalUrl}/verify?token=${token}&type=${type}&redirect_to=${encodeURIComponent(redirectTo)}`;
}

/** GoTrue's max_frequency between two emails of a kind to one user. */
function assertFrequency(settings: AuthSettings, sentAt: Date | null): void {
  if (!sentAt || settings.email.maxFrequencySeconds <= 0) return;
  const left = Math.ceil((sentAt.getTime() + settings.email.maxFrequencySeconds * 1000 - Date.now()) / 1000);
  if (left > 0)
    throw tooManyRequests("over_email_send_rate_limit", `For security purposes, you can only request this after ${left} seconds.`);
}

async function storeOneTimeToken(db: Db, userId: string, type: TokenColumn, token: string, relatesTo: string): Promise<void> {
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [randomUUID(), userId, type, token, relatesTo],
  );
}

/**
 * Creates the one-time token for a signup / invite / magic-link / recovery link, stores it where
 * GoTrue does (the user's token column and auth.one_time_tokens) and, unless `send` is false
 * (admin generate_link), emails it. PKCE tokens carry GoTrue's `pkce_` prefix.
 */
export async function createLink(
  ctx: LinkContext,
  user: UserRow,
  type: Exclude<LinkType, "email_change">,
  send = true,
): Promise<GeneratedLink> {
  const { token: column, sent, email } = columns[type];
  const address = user.email ?? "";
  if (send) {
    assertFrequency(ctx.settings, user[sent]);
    ctx.mailer.reserve();
  }
  const otp = generateOtp(ctx.settings.email.otpLength);
  const hashed = (ctx.pkce ? "pkce_" : "") + tokenHash(address, otp);
  await ctx.db.query(`update auth.users set ${column} = $2, ${sent} = now(), updated_at = now() where id = $1`, [user.id, hashed]);
  await storeOneTimeToken(ctx.db, user.id, column, hashed, address);
  const link = actionLink(ctx.settings, hashed, type, ctx.redirectTo);
  if (send) {
    ctx.mailer.send({
      kind: email,
      to: address,
      data: {
        ConfirmationURL: link,
        Token: otp,
        TokenHash: hashed,
        SiteURL: ctx.settings.siteUrl,
        RedirectTo: ctx.redirectTo,
        Email: address,
        NewEmail: "",
        Data: user.raw_user_meta_data ?? {},
      },
    });
  }
  return { otp, hashedToken: hashed, actionLink: link };
}

/**
 * An email change: a token for the new address and, with double_confirm_changes, one for the
 * current address; each address gets the email_change template with its own token.
 */
export async function createEmailChange(
  ctx: LinkContext,
  user: UserRow,
  newEmail: string,
  send = true,
): Promise<{ newLink: GeneratedLink; currentLink?: GeneratedLink }> {
  const current = user.email ?? "";
  const double = ctx.settings.email.doubleConfirmChanges && Boolean(current);
  if (send) {
    assertFrequency(ctx.settings, user.email_change_sent_at);
    ctx.mailer.reserve(double ? 2 : 1);
  }
  const prefix = ctx.pkce ? "pkce_" : "";
  const otpNew = generateOtp(ctx.settings.email.otpLength);
  const hashNew = prefix + tokenHash(newEmail, otpNew);
  const otpCurrent = double ? generateOtp(ctx.settings.email.otpLength) : "";
  const hashCurrent = double ? prefix + tokenHash(current, otpCurrent) : "";
  await ctx.db.query(
    `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
       email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, newEmail, hashNew, hashCurrent],
  );
  await storeOneTimeToken(ctx.db, user.id, "email_change_token_new", hashNew, newEmail);
  if (double) await storeOneTimeToken(ctx.db, user.id, "email_change_token_current", hashCurrent, current);
  const newLink = { otp: otpNew, hashedToken: hashNew, actionLink: actionLink(ctx.settings, hashNew, "email_change", ctx.redirectTo) };
  const currentLink = double
    ? { otp: otpCurrent, hashedToken: hashCurrent, actionLink: actionLink(ctx.settings, hashCurrent, "email_change", ctx.redirectTo) }
    : undefined;
  if (send) {
    const data = {
      SiteURL: ctx.settings.siteUrl,
      RedirectTo: ctx.redirectTo,
      Email: current,
      NewEmail: newEmail,
      Data: user.raw_user_meta_data ?? {},
    };
    ctx.mailer.send({
      kind: "email_change",
      to: newEmail,
      data: { ...data, ConfirmationURL: newLink.actionLink, Token: otpNew, TokenHash: hashNew },
    });
    if (currentLink)
      ctx.mailer.send({
        kind: "email_change",
        to: current,
        data: { ...data, ConfirmationURL: currentLink.actionLink, Token: otpCurrent, TokenHash: hashCurrent },
      });
  }
  return { newLink, currentLink };
}
