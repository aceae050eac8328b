import type { SupabaseClient } from "@supabase/supabase-js";
import { messages } from "@/lib/messages";
import { fail, ok, type Result } from "@/lib/result";
import { isUuid } from "@/lib/validation/ids";
import type { Database } from "@/types/database";
import { type NotificationsCursor, notificationsPageSize } from "./paging";
import { type NotificationItem, toNotificationItem } from "./types";

type Client = Pick<SupabaseClient<Database>, "rpc">;

export const notificationMessages = {
  unreadable: "We couldn't load your notifications — reload the page in a moment.",
  olderUnreadable: "We couldn't load older notifications — try again.",
  markFailed: "We couldn't mark them read — try again.",
} as const;

/**
 * One page of the caller's notifications, newest first (`my_notifications`: their own rows only,
 * and the words of what they are about only where the caller may still read them). Used by the
 * page's server render and by the browser's "Show older" alike.
 */
export async function getNotificationsPage(
  supabase: Client,
  { cursor = null, held = false }: { cursor?: NotificationsCursor | null; held?: boolean } = {},
): Promise<Result<NotificationItem[]>> {
  try {
    const { data, error } = await supabase.rpc("my_notifications", {
      ...(cursor ?? {}),
      page_size: notificationsPageSize,
      held_back: held,
    });
    if (error) return fail(cursor ? notificationMessages.olderUnreadable : notificationMessages.unreadable);
    return ok((data ?? []).map(toNotificationItem));
  } catch {
    return fail(messages.unreachable);
  }
}

/** How many of the caller's notifications are unread (held-back ones are not counted); null when unknown. */
export async function getUnreadCount(supabase: Client): Promise<number | null> {
  try {
    const { data, error } = await supabase.rpc("unread_notification_count");
    return error || typeof data !== "number" ? null : data;
  } catch {
    return null;
  }
}

/** Marks one of the caller's notifications read as its link is opened (an id not theirs, or not an id, marks nothing). */
export async function markOpenedNotification(supabase: Client, id: string): Promise<void> {
  if (!isUuid(id)) return;
  try {
    await supabase.rpc("mark_notifications_read", { ids: [id] });
  } catch {
    // Opening the comment matters more than marking it: it stays unread, to be marked from the list.
  }
}
