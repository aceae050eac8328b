// The queue's writes and reads from the browser, straight to session_queue and posts under their
// policies (who may do what is decided by Postgres; refusals come back in words).
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";
import { queueMessages, queueWriteError, refusedBy } from "./queue-errors";
import { likePattern } from "./queue";
import type { QueueEntry, SessionActionResult } from "./types";

type Data = Pick<SupabaseClient<Database>, "from" | "rpc">;
type Result<T> = SessionActionResult<T>;

const queueColumns = "id, session_id, room_id, post_id, added_by, status, sort_key, created_at";

/** Queues a post (the host) or suggests it (anyone else): the database decides which. */
export async function addToQueue(data: Data, input: { sessionId: string; postId: string; userId: string }): Promise<Result<QueueEntry>> {
  // room_id and status are set by the database from the session (the client may not send them), hence the cast.
  const { data: row, error } = await data
    .from("session_queue")
    .insert({ session_id: input.sessionId, post_id: input.postId, added_by: input.userId } as never)
    .select(queueColumns)
    .single<QueueEntry>();
  if (error || !row) return { ok: false, error: error ? queueWriteError(error, "add") : queueMessages.failed };
  return { ok: true, data: row };
}

/** The host moves an entry (a new sort key) or accepts a suggestion (queued, at a key). */
export async function updateQueueEntry(
  data: Data,
  id: string,
  change: { sort_key: number; status?: "queued" },
): Promise<Result<QueueEntry>> {
  const { data: rows, error } = await data.from("session_queue").update(change).eq("id", id).select(queueColumns).returns<QueueEntry[]>();
  if (error) return { ok: false, error: queueWriteError(error, "order") };
  if (!rows.length) return { ok: false, error: refusedBy("order") };
  return { ok: true, data: rows[0] };
}

/** Removes an entry (host, moderators, owner) or withdraws one's own suggestion. */
export async function removeFromQueue(data: Data, id: string): Promise<Result<null>> {
  const { data: rows, error } = await data.from("session_queue").delete().eq("id", id).select("id");
  if (error) return { ok: false, error: queueWriteError(error, "remove") };
  if (!rows.length) return { ok: false, error: refusedBy("remove") };
  return { ok: true, data: null };
}

export interface PostChoice {
  id: string;
  title: string;
  duration_seconds: number | null;
}

/** The room's posts whose title contains `text` (newest first), for the picker. */
export async function searchRoomPosts(data: Data, roomId: string, text: string, limit = 20): Promise<Result<PostChoice[]>> {
  let query = data.from("posts").select("id, title, duration_seconds").eq("room_id", roomId);
  if (text.trim()) query = query.ilike("title", likePattern(text));
  const { data: rows, error } = await query.order("created_at", { ascending: false }).limit(limit);
  if (error) return { ok: false, error: "We couldn't load the room's posts — try again in a moment." };
  return {
    ok: true,
    data: rows.map((row) => ({ ...row, duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds) })),
  };
}

/** Titles of posts and names of people the queue mentions, for those the page does not know yet. */
export async function queueDetails(
  data: Data,
  postIds: string[],
  userIds: string[],
): Promise<{ posts: Record<string, string>; people: Record<string, string> }> {
  const [posts, people] = await Promise.all([
    postIds.length ? data.from("posts").select("id, title").in("id", postIds) : null,
    userIds.length ? data.from("profiles").select("id, display_name").in("id", userIds) : null,
  ]);
  return {
    posts: Object.fromEntries((posts?.data ?? []).map((post) => [post.id, post.title])),
    people: Object.fromEntries((people?.data ?? []).map((person) => [person.id, person.display_name])),
  };
}
