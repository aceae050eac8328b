"use server";

import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { editMomentSchema, newMomentSchema, reactionSchema } from "@/lib/validation/moment";
import { momentMessages } from "./rules";
import { momentActionMessages, type MomentField, writeProblem } from "./errors";
import { getMoment } from "./queries";
import type { Moment, MomentReaction } from "./types";

export type MomentActionResult<T> = { ok: true; data: T } | { ok: false; error: string; errors?: Partial<Record<MomentField, string>> };

async function signedInClient() {
  const supabase = await createClient();
  return { supabase, userId: await verifiedUserId(supabase) };
}

function refused<T>(problem: { message: string; field?: MomentField }): MomentActionResult<T> {
  return { ok: false, error: problem.message, errors: problem.field ? { [problem.field]: problem.message } : undefined };
}

function invalid<T>(issues: { path: PropertyKey[]; message: string }[]): MomentActionResult<T> {
  const errors: Partial<Record<MomentField, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if ((field === "body" || field === "atSeconds" || field === "emoji") && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, error: issues[0]?.message ?? momentActionMessages.saveFailed, errors };
}

/**
 * A comment at a second of the post's media (or general, at null), as the signed-in member; with
 * `sessionId`, made during that listening session (it must be live and playing this post).
 */
export async function createMoment(input: { postId: string; atSeconds: number | null; body: string; sessionId?: string }): Promise<MomentActionResult<Moment>> {
  const parsed = newMomentSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: momentActionMessages.sessionEnded };
  const { postId, atSeconds, body, sessionId } = parsed.data;

  const { data: post } = await supabase.from("posts").select("duration_seconds").eq("id", postId).maybeSingle();
  if (!post) return { ok: false, error: momentActionMessages.postGone };
  if (atSeconds !== null && post.duration_seconds !== null && atSeconds > Number(post.duration_seconds)) {
    return refused({ message: momentMessages.atPastEnd, field: "atSeconds" });
  }

  // room_id is copied from the post by the database (the client may not send it), hence the cast.
  const row = { post_id: postId, author_id: userId, at_seconds: atSeconds, body, ...(sessionId ? { session_id: sessionId } : {}) };
  const { data, error } = await supabase.from("moments").insert(row as never).select("id").single<{ id: string }>();
  if (error || !data) return refused(error ? writeProblem(error, "moment") : { message: momentActionMessages.saveFailed });
  const moment = await getMoment(supabase, data.id);
  return moment ? { ok: true, data: moment } : { ok: false, error: momentActionMessages.saveFailed };
}

/** The author changes their comment's text (RLS: authors only, while members). */
export async function updateMoment(input: { momentId: string; body: string }): Promise<MomentActionResult<Pick<Moment, "id" | "body" | "updated_at">>> {
  const parsed = editMomentSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: momentActionMessages.sessionEnded };
  const { data, error } = await supabase.from("moments").update({ body: parsed.data.body }).eq("id", parsed.data.momentId).select("id, body, updated_at");
  if (error) return refused(writeProblem(error, "moment"));
  if (!data.length) return { ok: false, error: momentActionMessages.onlyAuthorEdits };
  return { ok: true, data: data[0] };
}

/** Deletes a comment: its author, or the room's moderators and owner (RLS decides). */
export async function deleteMoment(momentId: string): Promise<MomentActionResult<null>> {
  if (typeof momentId !== "string" || !/^[0-9a-f-]{36}$/.test(momentId)) return { ok: false, error: momentActionMessages.momentGone };
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: momentActionMessages.sessionEnded };
  const { data, error } = await supabase.from("moments").delete().eq("id", momentId).select("id");
  if (error) return { ok: false, error: momentActionMessages.deleteFailed };
  if (!data.length) return { ok: false, error: momentActionMessages.onlyAllowedDelete };
  return { ok: true, data: null };
}

/** The member's emoji on a comment; a second identical one is refused by the database. */
export async function addReaction(input: { momentId: string; emoji: string }): Promise<MomentActionResult<MomentReaction>> {
  const parsed = reactionSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: momentActionMessages.sessionEnded };
  // post_id and room_id come from the moment, in the database.
  const { data, error } = await supabase
    .from("reactions")
    .insert({ moment_id: parsed.data.momentId, user_id: userId, emoji: parsed.data.emoji } as never)
    .select("id, emoji, user_id")
    .single<MomentReaction>();
  if (error || !data) return refused(error ? writeProblem(error, "reaction") : { message: momentActionMessages.reactFailed });
  return { ok: true, data };
}

/** Takes the member's own emoji off a comment (nothing to remove is fine: the outcome asked for). */
export async function removeReaction(input: { momentId: string; emoji: string }): Promise<MomentActionResult<null>> {
  const parsed = reactionSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error.issues);
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: momentActionMessages.sessionEnded };
  const { error } = await supabase.from("reactions").delete().eq("moment_id", parsed.data.momentId).eq("user_id", userId).eq("emoji", parsed.data.emoji);
  if (error) return { ok: false, error: momentActionMessages.reactFailed };
  return { ok: true, data: null };
}
