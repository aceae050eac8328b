// The writes behind the reply and delete actions, on whichever client the caller holds (the server
// action's, or a test's signed-in client): Postgres and its policies decide, these read its answer.
import type { SupabaseClient } from "@supabase/supabase-js";
import { type Result, fail, ok } from "@/lib/result";
import type { Database } from "@/types/database";
import { type WriteProblem, momentActionMessages, writeProblem } from "./errors";

type Data = Pick<SupabaseClient<Database>, "from">;

/**
 * A reply by `authorId` to the comment `parentId`. The database copies the comment's post and time
 * onto it and refuses a reply to a reply, to a deleted comment, or by a non-member.
 */
export async function insertReply(supabase: Data, authorId: string, parentId: string, body: string): Promise<Result<string, WriteProblem>> {
  const { data: parent } = await supabase.from("moments").select("post_id").eq("id", parentId).maybeSingle();
  if (!parent) return fail({ message: momentActionMessages.parentGone });
  // post_id is replaced by the parent's in the database; room_id is copied from the post (the client may not send it).
  const row = { post_id: parent.post_id, author_id: authorId, body, parent_id: parentId };
  const { data, error } = await supabase
    .from("moments")
    .insert(row as never)
    .select("id")
    .single<{ id: string }>();
  if (error || !data) return fail(error ? writeProblem(error, "reply") : { message: momentActionMessages.replyFailed });
  return ok(data.id);
}

/**
 * Deletes a comment or reply (its author, the room's moderators and owner: RLS decides). A comment
 * that still has replies is emptied rather than removed — the database keeps it as "Comment deleted"
 * and the DELETE affects no row — so an empty answer is read again: `deletedAt` set is a success.
 */
export async function removeMoment(supabase: Data, momentId: string): Promise<Result<{ deletedAt: string | null }>> {
  const { data, error } = await supabase.from("moments").delete().eq("id", momentId).select("id");
  if (error) return fail(momentActionMessages.deleteFailed);
  if (data.length) return ok({ deletedAt: null });
  const { data: row, error: readError } = await supabase.from("moments").select("author_id, deleted_at").eq("id", momentId).maybeSingle();
  if (readError) return fail(momentActionMessages.deleteFailed);
  // Gone already (deleted meanwhile, or not readable): the outcome asked for.
  if (!row) return ok({ deletedAt: null });
  if (row.deleted_at) return ok({ deletedAt: row.deleted_at });
  return fail(momentActionMessages.onlyAllowedDelete);
}
