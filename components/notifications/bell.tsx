import { getUnreadCount } from "@/lib/notifications/queries";
import { createClient } from "@/lib/supabase/server";
import { BellLink } from "./bell-link";

/** The header's bell for a signed-in person: their unread count as the page renders, kept live in the browser. */
export async function NotificationBell({ userId }: { userId: string }) {
  const count = await getUnreadCount(await createClient());
  return <BellLink userId={userId} rendered={count} />;
}
