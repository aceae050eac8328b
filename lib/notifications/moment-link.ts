import type { SupabaseClient } from "@supabase/supabase-js";
import { createAdminClient } from "@/lib/supabase/admin";
import { isUuid } from "@/lib/validation/ids";
import type { Database } from "@/types/database";

/** A comment's exact place: its post, at its time (a comment on the whole post has none), with the comment picked out. */
export function commentHref(roomSlug: string, postId: string, momentId: string, atSeconds: number | null): string {
  const query = new URLSearchParams();
  if (atSeconds !== null && Number.isFinite(atSeconds)) query.set("t", String(Math.max(0, Math.floor(atSeconds))));
  query.set("comment", momentId);
  return `/r/${roomSlug}/p/${postId}?${query}`;
}

export type MomentDestination =
  /** The caller may read it: its post at its time. */
  | { kind: "comment"; href: string }
  /** It exists but is not the caller's to read: its post, which says why (members only) as it does to any non-member. */
  | { kind: "post"; href: string }
  /** No such comment (or not an id). */
  | { kind: "missing" };

const roomSlug = async (supabase: SupabaseClient<Database>, roomId: string) =>
  (await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle()).data?.slug ?? null;

/**
 * Where `/m/{id}` leads. The comment is read as the caller (its policies decide); one they may not
 * read is looked up by the server for its post alone — never its words — so the person lands where
 * a non-member of that room lands (the rooms and their slugs are public; the post page decides what
 * it shows).
 */
export async function momentDestination(supabase: SupabaseClient<Database>, momentId: string): Promise<MomentDestination> {
  if (!isUuid(momentId)) return { kind: "missing" };
  const { data: moment } = await supabase.from("moments").select("post_id, room_id, at_seconds").eq("id", momentId).maybeSingle();
  if (moment) {
    const slug = await roomSlug(supabase, moment.room_id);
    if (slug) return { kind: "comment", href: commentHref(slug, moment.post_id, momentId, moment.at_seconds) };
  }
  const admin = createAdminClient();
  const { data: hidden } = await admin.from("moments").select("post_id, room_id").eq("id", momentId).maybeSingle();
  if (!hidden) return { kind: "missing" };
  const slug = await roomSlug(admin, hidden.room_id);
  return slug ? { kind: "post", href: `/r/${slug}/p/${hidden.post_id}` } : { kind: "missing" };
}
