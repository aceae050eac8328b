import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { WelcomeForm } from "@/components/account/welcome-form";
import { RoomCard } from "@/components/rooms/room-card";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/redirect";
import { publicEnv } from "@/lib/env";
import { suggestedRooms } from "@/lib/rooms/queries";
import { createClient } from "@/lib/supabase/server";

export const metadata: Metadata = { title: "Welcome" };

/**
 * The first visit, after a sign-up's confirmation (/auth/confirm): the person chooses the names
 * sign-up made from their email, then sees rooms to start with, then goes where they were going.
 */
export default async function WelcomePage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  const user = await getCurrentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(`/welcome?next=${next}`)}`);
  const supabase = await createClient();
  const rooms = await suggestedRooms(supabase, user.id);
  const origin = new URL(publicEnv().siteUrl).host;

  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Welcome to Cuepoint</h1>
        <p className="text-muted">Choose how people see you. You can change both later on your account page.</p>
      </div>
      <Card>
        <WelcomeForm
          selfId={user.id}
          initial={{ username: user.profile?.username ?? "", displayName: user.profile?.display_name ?? "" }}
          origin={origin}
          next={next}
        >
          <section aria-labelledby="suggested-heading" className="flex flex-col gap-4">
            <h2 id="suggested-heading" className="text-lg font-semibold">
              You&apos;re all set. Rooms to start with
            </h2>
            {rooms.length ? (
              <ul className="grid gap-4 sm:grid-cols-2">
                {rooms.map((room) => (
                  <li key={room.id}>
                    <RoomCard room={room} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted">No open rooms yet — create the first one.</p>
            )}
            <div className="flex flex-wrap gap-3">
              <Link href={next} className={buttonClasses("primary")}>
                Continue
              </Link>
              <Link href="/rooms/new" className={buttonClasses("secondary")}>
                Create a room
              </Link>
            </div>
          </section>
        </WelcomeForm>
      </Card>
    </main>
  );
}
