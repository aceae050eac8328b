"use server";

import { fail, ok } from "@/lib/result";
import { type Refusal, action, prelude } from "@/lib/server-action";
import { editMomentSchema, newMomentSchema, newReplySchema, reactionSchema } from "@/lib/validation/moment";
import { uuidField } from "@/lib/validation/uuid-schema";
import { type MomentActionResult, type MomentField, type WriteProblem, momentActionMessages, writeProblem } from "./errors";
import { getMoment } from "./queries";
import { insertReply, removeMoment } from "./writes";
import { momentMessages } from "./rules";
import type { Moment, MomentReaction } from "./types";

const momentFields: readonly PropertyKey[] = ["body", "atSeconds", "emoji"] satisfies MomentField[];

function refused(problem: WriteProblem): MomentActionResult<never> {
  return { ok: false, error: problem.message, errors: problem.field ? { [problem.field]: problem.message } : undefined };
}

/** The prelude's refusal: a signed-out caller's message, or the input's first problem with each field's next to it. */
function notStarted(refusal: Refusal<PropertyKey>): MomentActionResult<never> {
  if (refusal.reason === "signed-out") return fail(refusal.message);
  const errors: Partial<Record<MomentField, string>> = {};
  for (const [field, message] of Object.entries(refusal.fields)) if (momentFields.includes(field)) errors[field as MomentField] = message;
  return { ok: false, error: refusal.message, errors };
}

/**
 * A comment at a second of the post's media (or general, at null), as the signed-in member; with
 * `sessionId`, made during that listening session (it must be live and playing this post).
 */
export async function createMoment(input: {
  postId: string;
  atSeconds: number | null;
  body: string;
  sessionId?: string;
}): Promise<MomentActionResult<Moment>> {
  const started = await prelude(newMomentSchema, input);
  if (!started.ok) return notStarted(started.error);
  const { supabase, userId } = started.data;
  const { postId, atSeconds, body, sessionId } = started.data.input;

  const { data: post } = await supabase.from("posts").select("duration_seconds").eq("id", postId).maybeSingle();
  if (!post) return fail(momentActionMessages.postGone);
  if (atSeconds !== null && post.duration_seconds !== null && atSeconds > Number(post.duration_seconds)) {
    return refused({ message: momentMessages.atPastEnd, field: "atSeconds" });
  }

  // room_id is copied from the post by the database (the client may not send it), hence the cast.
  const row = { post_id: postId, author_id: userId, at_seconds: atSeconds, body, ...(sessionId ? { session_id: sessionId } : {}) };
  const { data, error } = await supabase
    .from("moments")
    .insert(row as never)
    .select("id")
    .single<{ id: string }>();
  if (error || !data) return refused(error ? writeProblem(error, "moment") : { message: momentActionMessages.saveFailed });
  const moment = await getMoment(supabase, data.id);
  return moment ? ok(moment) : fail(momentActionMessages.saveFailed);
}

/**
 * A reply to a comment on the post, as the signed-in member. The database takes the comment's post
 * and time for it and refuses a reply to a reply or to a deleted comment.
 */
export async function createReply(input: { parentId: string; body: string }): Promise<MomentActionResult<Moment>> {
  const started = await prelude(newReplySchema, input);
  if (!started.ok) return notStarted(started.error);
  const { supabase, userId } = started.data;
  const { parentId, body } = started.data.input;
  const inserted = await insertReply(supabase, userId, parentId, body);
  if (!inserted.ok) return refused(inserted.error);
  const moment = await getMoment(supabase, inserted.data);
  return moment ? ok(moment) : fail(momentActionMessages.replyFailed);
}

/** The author changes their comment's text (RLS: authors only, while members). */
export async function updateMoment(input: {
  momentId: string;
  body: string;
}): Promise<MomentActionResult<Pick<Moment, "id" | "body" | "updated_at" | "mentions">>> {
  const started = await prelude(editMomentSchema, input);
  if (!started.ok) return notStarted(started.error);
  const { supabase, input: edit } = started.data;
  const { data, error } = await supabase.from("moments").update({ body: edit.body }).eq("id", edit.momentId).select("id");
  if (error) return refused(writeProblem(error, "moment"));
  if (!data.length) return fail(momentActionMessages.onlyAuthorEdits);
  // Read back with the people its new words name: the database rewrites its mentions after the update.
  const { data: edited } = await supabase
    .from("moments")
    .select("id, body, updated_at, mentions(user_id, handle, person:profiles(username))")
    .eq("id", edit.momentId)
    .maybeSingle();
  if (!edited) return fail(momentActionMessages.momentGone);
  return ok(edited as Pick<Moment, "id" | "body" | "updated_at" | "mentions">);
}

/**
 * Deletes a comment: its author, or the room's moderators and owner (RLS decides). A comment that
 * still has replies is emptied instead of removed (the database keeps it as "Comment deleted" and
 * the delete touches no row): read again, that is a success too, answered with `deletedAt`.
 */
export async function deleteMoment(momentId: string): Promise<MomentActionResult<{ deletedAt: string | null }>> {
  return action(uuidField(momentActionMessages.momentGone), momentId, (momentId, { supabase }) => removeMoment(supabase, momentId));
}

/** The member's emoji on a comment; a second identical one is refused by the database. */
export async function addReaction(input: { momentId: string; emoji: string }): Promise<MomentActionResult<MomentReaction>> {
  const started = await prelude(reactionSchema, input);
  if (!started.ok) return notStarted(started.error);
  const { supabase, userId, input: reaction } = started.data;
  // post_id and room_id come from the moment, in the database.
  const { data, error } = await supabase
    .from("reactions")
    .insert({ moment_id: reaction.momentId, user_id: userId, emoji: reaction.emoji } as never)
    .select("id, emoji, user_id")
    .single<MomentReaction>();
  if (error || !data) return refused(error ? writeProblem(error, "reaction") : { message: momentActionMessages.reactFailed });
  return ok(data);
}

/** Takes the member's own emoji off a comment (nothing to remove is fine: the outcome asked for). */
export async function removeReaction(input: { momentId: string; emoji: string }): Promise<MomentActionResult<null>> {
  const started = await prelude(reactionSchema, input);
  if (!started.ok) return notStarted(started.error);
  const { supabase, userId, input: reaction } = started.data;
  const { error } = await supabase
    .from("reactions")
    .delete()
    .eq("moment_id", reaction.momentId)
    .eq("user_id", userId)
    .eq("emoji", reaction.emoji);
  if (error) return fail(momentActionMessages.reactFailed);
  return ok();
}
