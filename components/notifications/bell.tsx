import { getUnreadCount } from "@/lib/notifications/queries";
import { createClient } from "@/lib/supabase/server";
import { LazyBellLink } from "./lazy-parts";

/** The header's bell for a signed-in person: their unread count as the page renders, kept live in the browser (its code loads on its own, see ./lazy-parts.tsx). */
export async function NotificationBell({ userId }: { userId: string }) {
  const count = await getUnreadCount(await createClient());
  return <LazyBellLink userId={userId} rendered={count} />;
}
