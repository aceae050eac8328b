// notification-digest: emails each person due a digest the notifications they chose by email
// (notification_settings.email_kinds) that are still unread — one email per person, at most one an
// hour (the database's rule), each with one-click unsubscribe headers (RFC 8058).
//   POST {}                  → everyone due now
//   POST {"user_id": "<id>"} → that person, if due
// Service role only: verify_jwt lets any valid token through, so the caller's role claim is checked
// here. Answers {sent, skipped, failed}: skipped are people not due after all (another run took
// them, or nothing was left to say); a failure for one person is logged, their claim given back
// (so the next run tries again), and the others go on.
import { callerClaims } from "../_shared/auth.ts";
import { corsHeaders, json } from "../_shared/cors.ts";
import { buildDigestEmail, parseDigestClaim } from "../../../lib/notifications/email.ts";
import { type Sender, SenderNotConfigured, senderFromEnv } from "./send.ts";
import * as store from "./store.ts";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const malformed = 'Send {} to email everyone due a digest, or {"user_id": "<id>"} for one person.';

async function readPerson(req: Request): Promise<string | null | undefined> {
  const raw = await req.text();
  if (raw.trim() === "") return null;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const person = (body as Record<string, unknown>).user_id;
  if (person === undefined || person === null) return null;
  return typeof person === "string" && uuid.test(person) ? person : undefined;
}

async function sendOne(person: string, sender: Sender, siteUrl: string): Promise<"sent" | "skipped"> {
  const claimed = parseDigestClaim(await store.claim(person));
  if (!claimed) return "skipped";
  try {
    await sender.send(buildDigestEmail(claimed, siteUrl));
    return "sent";
  } catch (error) {
    await store.release(claimed).catch((releaseError) => console.error(`notification-digest: could not release ${person}:`, releaseError));
    throw error;
  }
}

Deno.serve(async (req) => {
  if (req.method === "OPTIONS") return new Response("ok", { headers: corsHeaders });
  if (req.method !== "POST") return json({ error: malformed }, 405);
  if (callerClaims(req).role !== "service_role") return json({ error: "Only the server sends digests." }, 403);

  const person = await readPerson(req);
  if (person === undefined) return json({ error: malformed }, 400);
  const siteUrl = Deno.env.get("SITE_URL");
  if (!siteUrl) return json({ error: "Set SITE_URL in the function's secrets: the emails link to it." }, 500);

  let sender: Sender;
  try {
    sender = senderFromEnv();
  } catch (error) {
    if (error instanceof SenderNotConfigured) return json({ error: error.message }, 500);
    throw error;
  }

  const counts = { sent: 0, skipped: 0, failed: 0 };
  try {
    const due = await store.peopleDue(person);
    // A person asked for by id who is not due (within the hour, nothing new) is skipped.
    if (person && due.length === 0) counts.skipped += 1;
    for (const someone of due) {
      try {
        counts[await sendOne(someone, sender, siteUrl)] += 1;
      } catch (error) {
        counts.failed += 1;
        console.error(`notification-digest: the digest for ${someone} was not sent:`, error);
      }
    }
  } catch (error) {
    console.error("notification-digest failed:", error);
    return json({ error: "Something went wrong on our side; no more digests were sent this time.", ...counts }, 500);
  } finally {
    sender.close();
  }
  return json(counts);
});
