import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { messages } from "@/lib/messages";
import { fail, ok, type Result } from "@/lib/result";
import type { NotificationsCursor } from "./paging";
import { getNotificationsPage, getUnreadCount, notificationMessages } from "./queries";
import type { NotificationItem } from "./types";

/** The calls the notifications page and the bell make from the browser, on the page's data client. */

export async function fetchNotifications(options: {
  cursor?: NotificationsCursor | null;
  held?: boolean;
}): Promise<Result<NotificationItem[]>> {
  try {
    return await getNotificationsPage(await loadSupabaseData(), options);
  } catch {
    return fail(messages.unreachable);
  }
}

export async function fetchUnreadCount(): Promise<number | null> {
  try {
    return await getUnreadCount(await loadSupabaseData());
  } catch {
    return null;
  }
}

/** Marks these notifications read (all of the caller's when `ids` is null); the database answers how many changed. */
export async function markNotificationsRead(ids: string[] | null): Promise<Result<number>> {
  try {
    const data = await loadSupabaseData();
    const { data: count, error } = await data.rpc("mark_notifications_read", ids ? { ids } : {});
    if (error) return fail(notificationMessages.markFailed);
    return ok(typeof count === "number" ? count : 0);
  } catch {
    return fail(messages.unreachable);
  }
}
