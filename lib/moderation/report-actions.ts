"use server";

// The writes of reports, held comments and blocked terms, as server actions: each runs as the
// signed-in person through the server client, so Postgres' functions and policies decide who may act
// on what (lib/moderation/reports.ts, held.ts call them); what they refuse comes back as a sentence.
import { revalidatePath } from "next/cache";
import { type Result, fail } from "@/lib/result";
import { type ServerClient, action } from "@/lib/server-action";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import { type BlockedTerm, type BlockedTermInput, addBlockedTerm, blockedTermSchema, removeBlockedTerm } from "./held";
import {
  type ApprovalInput,
  type Report,
  type ReportInput,
  type ResolutionInput,
  approvalInputSchema,
  approveComment,
  dismissReports,
  removeContent,
  reportContent,
  reportInputSchema,
  resolutionInputSchema,
} from "./reports";

async function refreshRoomOf(supabase: ServerClient, roomId: string | null | undefined): Promise<void> {
  if (!roomId) return;
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  if (data?.slug) revalidatePath(`/r/${data.slug}`, "layout");
}

/** A member reports a post or comment (once). */
export async function reportItem(input: ReportInput): Promise<Result<Report>> {
  return action(reportInputSchema, input, async (parsed, { supabase }) => {
    const made = await reportContent(supabase, parsed);
    if (made.ok) await refreshRoomOf(supabase, made.data.room_id);
    return made;
  });
}

/** Owner and moderators: removes the post or comment (its reports become actioned). */
export async function removeReportedItem(input: ResolutionInput & { roomId: string }): Promise<Result> {
  return action(resolutionInputSchema, input, async (parsed, { supabase }) => {
    const done = await removeContent(supabase, parsed);
    if (done.ok) await refreshRoomOf(supabase, input.roomId);
    return done;
  });
}

/** Owner and moderators: dismisses the item's reports and shows it again. */
export async function dismissItemReports(input: ResolutionInput & { roomId: string }): Promise<Result<number>> {
  return action(resolutionInputSchema, input, async (parsed, { supabase }) => {
    const done = await dismissReports(supabase, parsed);
    if (done.ok) await refreshRoomOf(supabase, input.roomId);
    return done;
  });
}

/** Owner and moderators: approves a held comment. */
export async function approveHeldComment(input: ApprovalInput & { roomId: string }): Promise<Result> {
  return action(approvalInputSchema, input, async (parsed, { supabase }) => {
    const done = await approveComment(supabase, parsed);
    if (done.ok) await refreshRoomOf(supabase, input.roomId);
    return done;
  });
}

/** Owner: blocks a word or phrase in the room. */
export async function blockTerm(input: BlockedTermInput): Promise<Result<BlockedTerm>> {
  return action(blockedTermSchema, input, (parsed, { supabase }) => addBlockedTerm(supabase, parsed));
}

const termIdSchema = z.object({ termId: uuidField("Not a valid term") });

/** Owner: unblocks a term. */
export async function unblockTerm(termId: string): Promise<Result> {
  return action(termIdSchema, { termId }, async ({ termId }, { supabase }) => {
    const done = await removeBlockedTerm(supabase, termId);
    return done.ok ? done : fail(done.error);
  });
}
