// The function's database calls, as the service role: who is due, claiming a person's digest
// (records last_digest_at, at most hourly, and issues the email's unsubscribe tokens) and giving a
// claim back when its email could not be sent. The rules live in Postgres
// (supabase/migrations/20261130001000_email_digests.sql); this only calls them.
import { createClient } from "npm:@supabase/supabase-js@2";
import type { DigestClaim } from "../../../lib/notifications/email.ts";

const noSession = { persistSession: false, autoRefreshToken: false };
const db = createClient(Deno.env.get("SUPABASE_URL")!, Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, { auth: noSession });

/** The people due a digest now (or the one named, when due). */
export async function peopleDue(person: string | null): Promise<string[]> {
  const { data, error } = await db.rpc("email_digests_due", person ? { person } : {});
  if (error) throw error;
  return ((data ?? []) as { user_id: string }[]).map((row) => row.user_id);
}

/** Takes a person's digest: what to send, or null when they are not due or have nothing new. */
export async function claim(person: string): Promise<unknown> {
  const { data, error } = await db.rpc("claim_email_digest", { person });
  if (error) throw error;
  return data;
}

export async function release(claimed: DigestClaim): Promise<void> {
  const { error } = await db.rpc("release_email_digest", {
    person: claimed.user_id,
    claimed_at: claimed.claimed_at,
    previous_digest_at: claimed.previous_digest_at,
  });
  if (error) throw error;
}
