import type { SupabaseClient } from "@supabase/supabase-js";
import { type Result, fail, ok } from "@/lib/result";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import type { Database, Tables } from "@/types/database";
import { reportError, reportMessages } from "./reports";

// Blocked terms and held comments as Postgres holds them (supabase/migrations/
// 20261129000700_blocked_terms.sql): the room's owner keeps a list of words and phrases; a comment
// containing one — whole words, whatever its case or accents — is held for review: only its author
// and the room's owner and moderators see it, until a moderator approves or removes it. Owner and
// moderators' own comments are never held. The terms are read and written straight to
// public.room_blocked_terms under its policies (the owner writes; the owner and moderators read).

type Client = Pick<SupabaseClient<Database>, "from">;

export const blockedTermLimits = { termMax: 60, termsPerRoom: 200 } as const;

export const heldMessages = {
  held: "Held for review",
  heldExplained: "Held for review — only you and the room's moderators can see it until a moderator approves it.",
  termLength: `Blocked terms are 1–${blockedTermLimits.termMax} characters`,
} as const;

export const blockedTermSchema = z.object({
  roomId: uuidField("Not a valid room"),
  term: z
    .string()
    .trim()
    .min(1, heldMessages.termLength)
    .max(blockedTermLimits.termMax, heldMessages.termLength)
    .transform((term) => term.replace(/\s+/g, " ")),
});
export type BlockedTermInput = z.input<typeof blockedTermSchema>;

export type BlockedTerm = Pick<Tables<"room_blocked_terms">, "id" | "room_id" | "term" | "created_at" | "created_by">;

/** Whether a comment (or post) is held or hidden from others, and what its author reads about it. */
export function withheldNote(item: { held_at?: string | null; hidden_at?: string | null }): string | null {
  if (item.held_at) return heldMessages.held;
  if (item.hidden_at) return reportMessages.hidden;
  return null;
}

/** The room's blocked terms, oldest first (owner and moderators; others read none). */
export async function blockedTerms(client: Client, roomId: string): Promise<Result<BlockedTerm[]>> {
  const { data, error } = await client
    .from("room_blocked_terms")
    .select("id, room_id, term, created_at, created_by")
    .eq("room_id", roomId)
    .order("created_at")
    .order("id");
  if (error) return fail(reportError(error, "We couldn't load the blocked terms — try again."));
  return ok(data ?? []);
}

/** Owner: blocks a word or phrase in the room. */
export async function addBlockedTerm(client: Client, input: BlockedTermInput): Promise<Result<BlockedTerm>> {
  const parsed = blockedTermSchema.safeParse(input);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? heldMessages.termLength);
  const { data, error } = await client
    .from("room_blocked_terms")
    .insert({ room_id: parsed.data.roomId, term: parsed.data.term })
    .select("id, room_id, term, created_at, created_by")
    .single();
  if (error) {
    if (error.code === "42501") return fail("Only the room's owner changes its blocked terms");
    return fail(reportError(error, "We couldn't block that term — try again."));
  }
  return ok(data);
}

/** Owner: unblocks a term. */
export async function removeBlockedTerm(client: Client, termId: string): Promise<Result> {
  const { data, error } = await client.from("room_blocked_terms").delete().eq("id", termId).select("id");
  if (error) return fail(reportError(error, "We couldn't remove that term — try again."));
  if (!data?.length) return fail("Only the room's owner changes its blocked terms");
  return ok();
}
