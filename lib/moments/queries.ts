import type { SupabaseClient } from "@supabase/supabase-js";
import type { Result } from "@/lib/result";
import type { Database } from "@/types/database";
import { compareKeys, keyOf, type Moment, type MomentKey, type MomentWithReplies } from "./types";

const momentsPageSize = 50;

/** A comment's or reply's own columns, its author, reactions and the people its @names name (by their current username). */
const oneMoment =
  "id, post_id, parent_id, author_id, at_seconds, body, created_at, updated_at, hidden_at, held_at, deleted_at, author:profiles!moments_author_id_fkey(username, display_name, avatar_path, ens_name), reactions(id, emoji, user_id), mentions(user_id, handle, person:profiles(username))";

/** A comment on the post with its replies (one level), in the same request. */
const momentColumns = `${oneMoment}, replies:moments!parent_id(${oneMoment})`;

type Data = Pick<SupabaseClient<Database>, "from" | "rpc">;
type Page = { moments: MomentWithReplies[]; next: MomentKey | null };

const loadFailed = "We couldn't load the comments — try again in a moment.";

const shapeOne = (row: Moment): Moment => ({
  ...row,
  at_seconds: row.at_seconds === null ? null : Number(row.at_seconds),
  reactions: row.reactions ?? [],
  mentions: row.mentions ?? [],
});

/** Rows as PostgREST answers them; replies oldest first. */
const shape = (rows: unknown[]): MomentWithReplies[] =>
  (rows as MomentWithReplies[]).map((row) => ({
    ...shapeOne(row),
    ...(row.replies
      ? {
          replies: row.replies
            .map(shapeOne)
            .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1)),
        }
      : {}),
  }));

/**
 * One page of a post's moments in list order (`at_seconds asc nulls last, id asc`), after `after`
 * (the last key of the previous page; null for the first page). Timed moments and general comments
 * are read as two index range scans on (post_id, at_seconds, id), so a page costs the same at the
 * 10,000th moment as at the first.
 */
export async function getMomentsPage(
  supabase: Data,
  postId: string,
  after: MomentKey | null,
  limit = momentsPageSize,
): Promise<Result<Page>> {
  let timed: MomentWithReplies[] = [];
  if (after === null || after.at !== null) {
    let query = supabase.from("moments").select(momentColumns).eq("post_id", postId).is("parent_id", null).not("at_seconds", "is", null);
    if (after) query = query.gte("at_seconds", after.at!).or(`at_seconds.gt.${after.at},id.gt.${after.id}`);
    const { data, error } = await query
      .order("at_seconds", { ascending: true, nullsFirst: false })
      .order("id", { ascending: true })
      .limit(limit + 1);
    if (error) return { ok: false, error: loadFailed };
    timed = shape(data);
    if (timed.length > limit) {
      const moments = timed.slice(0, limit);
      return { ok: true, data: { moments, next: keyOf(moments.at(-1)!) } };
    }
  }
  const room = limit - timed.length;
  let general = supabase.from("moments").select(momentColumns).eq("post_id", postId).is("parent_id", null).is("at_seconds", null);
  if (after?.at === null) general = general.gt("id", after.id);
  const { data, error } = await general.order("id", { ascending: true }).limit(room + 1);
  if (error) return { ok: false, error: loadFailed };
  const rest = shape(data);
  const moments = [...timed, ...rest.slice(0, room)];
  return { ok: true, data: { moments, next: rest.length > room && moments.length ? keyOf(moments.at(-1)!) : null } };
}

/** One moment with its author, reactions and mentions (a moment that arrived on the room's channel, or a reply). */
export async function getMoment(supabase: Data, id: string): Promise<Moment | null> {
  const { data } = await supabase.from("moments").select(oneMoment).eq("id", id).maybeSingle();
  return data ? shapeOne(data as unknown as Moment) : null;
}

/** One comment with its replies (a link to it, or to one of its replies, that the loaded pages do not hold). */
export async function getThread(supabase: Data, id: string): Promise<MomentWithReplies | null> {
  const { data } = await supabase.from("moments").select(momentColumns).eq("id", id).maybeSingle();
  return data ? shape([data])[0] : null;
}

/**
 * Reads a post's moments again from the start through `through` (everything when null), page by
 * page: what the page shows after a reconnect, to merge over what it holds (`merge` in state.ts).
 */
export async function refetchMoments(supabase: Data, postId: string, through: MomentKey | null): Promise<Result<MomentWithReplies[]>> {
  const moments: MomentWithReplies[] = [];
  let after: MomentKey | null = null;
  for (;;) {
    const page = await getMomentsPage(supabase, postId, after);
    if (!page.ok) return page;
    for (const moment of page.data.moments) {
      if (through && compareKeys(keyOf(moment), through) > 0) return { ok: true, data: moments };
      moments.push(moment);
    }
    if (!page.data.next) return { ok: true, data: moments };
    after = page.data.next;
  }
}
