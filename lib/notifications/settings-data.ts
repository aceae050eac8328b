import type { SupabaseClient } from "@supabase/supabase-js";
import { type Result, fail, ok } from "@/lib/result";
import type { Database } from "@/types/database";
import {
  type MuteTarget,
  type MutedPlace,
  type NotificationSettings,
  notificationSettingsMessages as words,
  rowFromSettings,
  settingsFromRow,
} from "./settings";

// The notification settings and mutes, read and written through the caller's client (a Server
// Component's, a server action's, or a test's supabase-js): the tables' policies let each person see
// and change only their own rows, so nothing here passes a user id to trust except the caller's own.

type Client = SupabaseClient<Database>;

/** The caller's choices (the defaults when they never saved any), or why they could not be read. */
export async function readNotificationSettings(supabase: Client): Promise<Result<NotificationSettings>> {
  const { data, error } = await supabase.from("notification_settings").select("muted_kinds, email_kinds, hold_strangers").maybeSingle();
  if (error) return fail("We couldn't load your notification settings — reload the page in a moment.");
  return ok(settingsFromRow(data));
}

/**
 * Saves the caller's choices: their one row, made on the first save. An update first, then an
 * insert when there was no row (an upsert would also set user_id on conflict, which the table's
 * column grants rightly refuse); an insert that loses a race with another tab's first save updates.
 */
export async function saveNotificationSettings(supabase: Client, userId: string, settings: NotificationSettings): Promise<Result> {
  const columns = rowFromSettings(settings);
  const update = () => supabase.from("notification_settings").update(columns).eq("user_id", userId).select("user_id");
  const updated = await update();
  if (updated.error) return fail(words.failed);
  if (updated.data.length) return ok();
  const inserted = await supabase.from("notification_settings").insert({ user_id: userId, ...columns });
  if (!inserted.error) return ok();
  if (inserted.error.code !== "23505") return fail(words.failed);
  const again = await update();
  return !again.error && again.data.length ? ok() : fail(words.failed);
}

/** Whether the caller muted this room, or this post's thread. */
export async function isMuted(supabase: Client, target: MuteTarget): Promise<boolean> {
  const query = supabase.from("notification_mutes").select("id");
  const { data } = await (target.roomId ? query.eq("room_id", target.roomId) : query.eq("post_id", target.postId!)).limit(1);
  return Boolean(data?.length);
}

/** Mutes or unmutes a room or a thread for the caller; doing what is already done is not an error. */
export async function setMuted(supabase: Client, userId: string, target: MuteTarget, muted: boolean): Promise<Result<{ muted: boolean }>> {
  if (muted) {
    const { error } = await supabase
      .from("notification_mutes")
      .insert(target.roomId ? { user_id: userId, room_id: target.roomId } : { user_id: userId, post_id: target.postId });
    // 23505: already muted (the unique keys); 23503: the room or post is gone.
    if (error?.code === "23503") return fail(target.roomId ? words.room : words.post);
    if (error && error.code !== "23505") return fail(words.muteFailed);
    return ok({ muted: true });
  }
  const query = supabase.from("notification_mutes").delete();
  const { error } = await (target.roomId ? query.eq("room_id", target.roomId) : query.eq("post_id", target.postId!));
  if (error) return fail(words.muteFailed);
  return ok({ muted: false });
}

/** Removes one of the caller's mutes by its id (the account page's list). */
export async function removeMute(supabase: Client, muteId: string): Promise<Result> {
  const { error } = await supabase.from("notification_mutes").delete().eq("id", muteId);
  return error ? fail(words.muteFailed) : ok();
}

/** Everything the caller muted, newest first, with the names and links they may still read. */
export async function listMutedPlaces(supabase: Client): Promise<Result<MutedPlace[]>> {
  const { data, error } = await supabase
    .from("notification_mutes")
    .select("id, room_id, post_id, room:rooms(name, slug), post:posts(id, title, room:rooms(name, slug))")
    .order("created_at", { ascending: false })
    .order("id");
  if (error) return fail("We couldn't load what you muted — reload the page in a moment.");
  return ok(
    data.map((row): MutedPlace => {
      if (row.room_id) {
        return {
          id: row.id,
          kind: "room",
          roomId: row.room_id,
          postId: null,
          name: row.room?.name ?? null,
          href: row.room ? `/r/${row.room.slug}` : null,
          roomName: row.room?.name ?? null,
        };
      }
      const post = row.post;
      return {
        id: row.id,
        kind: "post",
        roomId: null,
        postId: row.post_id,
        name: post?.title ?? null,
        href: post?.room ? `/r/${post.room.slug}/p/${post.id}` : null,
        roomName: post?.room?.name ?? null,
      };
    }),
  );
}
