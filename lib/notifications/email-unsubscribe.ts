// One-click unsubscribe from digest emails (RFC 8058), for /email/unsubscribe: the link's token is
// all the caller has — no session, no cookies (a mail client posts it) — so the database function
// is asked as anon, and it alone decides (public.unsubscribe_from_email: once, only for the
// token's own person). Reading a token (the page, on GET) never uses it: mail scanners open links.
import { createClient } from "@supabase/supabase-js";
import { publicEnv } from "@/lib/env";
import type { Database } from "@/types/database";
import { emailKindWords } from "./email";
import { isUnsubscribeToken } from "./email-token";

export type UnsubscribeResult =
  | { status: "unsubscribed" | "already_used"; kind: string | null }
  | { status: "invalid" }
  /** The database could not be asked; nothing changed. */
  | { status: "failed" };

export type UnsubscribeLink = { status: "valid" | "already_used"; kind: string | null } | { status: "invalid" } | { status: "failed" };

function anonymous() {
  const env = publicEnv();
  return createClient<Database>(env.supabaseUrl, env.supabaseKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** What a link would stop, without using it. */
export async function describeUnsubscribeLink(token: unknown): Promise<UnsubscribeLink> {
  if (!isUnsubscribeToken(token)) return { status: "invalid" };
  const { data, error } = await anonymous().rpc("describe_email_unsubscribe", { token });
  if (error) return { status: "failed" };
  const row = data?.[0];
  if (!row) return { status: "invalid" };
  return { status: row.outcome === "valid" ? "valid" : "already_used", kind: row.kind };
}

export async function unsubscribe(token: unknown): Promise<UnsubscribeResult> {
  if (!isUnsubscribeToken(token)) return { status: "invalid" };
  const { data, error } = await anonymous().rpc("unsubscribe_from_email", { token });
  if (error) return error.code === "22023" ? { status: "invalid" } : { status: "failed" };
  const row = data?.[0];
  if (!row) return { status: "failed" };
  return { status: row.outcome === "unsubscribed" ? "unsubscribed" : "already_used", kind: row.kind };
}

/** "emails about mentions", or "notification emails from Cuepoint" for a link that stops them all. */
function whichEmails(kind: string | null): string {
  return kind && emailKindWords[kind] ? `emails about ${emailKindWords[kind]}` : "notification emails from Cuepoint";
}

export const unsubscribeWords = {
  question: (kind: string | null) => `Stop ${whichEmails(kind)}?`,
  button: "Stop these emails",
  explain: "You don't need to sign in. You can turn them back on any time on your account page.",
  done: (kind: string | null) =>
    `Done — you won't get ${whichEmails(kind)} any more. You can turn them back on any time on your account page.`,
  alreadyUsed: (kind: string | null) =>
    `This link was already used: you don't get ${whichEmails(kind)} any more. Change which emails you get on your account page.`,
  invalid: "That unsubscribe link isn't valid. You can choose which emails you get on your account page.",
  failed: "Something went wrong on our side and nothing changed — try again in a minute.",
} as const;
