import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { NotificationFeed } from "@/components/notifications/notification-feed";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getNotificationsPage } from "@/lib/notifications/queries";
import { createClient } from "@/lib/supabase/server";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<{ show?: string | string[] }> }) {
  const held = (await searchParams).show === "held";
  const here = held ? "/notifications?show=held" : "/notifications";
  const user = await getCurrentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(here)}`);
  const first = await getNotificationsPage(await createClient(), { held });
  // eslint-disable-next-line react-hooks/purity -- a Server Component renders once: "5 min ago" counts from this moment, on the server and in the browser alike
  const renderedAt = Date.now();
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-10">
      <NotificationFeed
        // A new render (another tab, a refresh) starts the list again from what it read.
        key={held ? "held" : "all"}
        userId={user.id}
        initial={first.ok ? first.data : []}
        initialError={first.ok ? null : first.error}
        held={held}
        renderedAt={renderedAt}
      />
    </main>
  );
}
