import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { BlockedTerms } from "@/components/moderation/blocked-terms";
import { ModerationLive } from "@/components/moderation/moderation-live";
import { ModerationLog } from "@/components/moderation/moderation-log";
import { ModerationQueue } from "@/components/moderation/queue";
import { RefreshOnFocus } from "@/components/moderation/refresh-on-focus";
import { Restrictions } from "@/components/moderation/restrictions";
import { RoomRules } from "@/components/moderation/room-rules";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { linkClasses } from "@/components/ui/link";
import { getCurrentUser } from "@/lib/auth/current-user";
import { loadModerationPage } from "@/lib/moderation/page-queries";
import { roomBans, roomTimeouts } from "@/lib/moderation/queries";
import { loadRoom } from "@/lib/rooms/room-loader";

type Params = Promise<{ slug: string }>;
type Search = Promise<{ before?: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { result } = await loadRoom((await params).slug);
  return { title: result.ok ? `Moderation · ${result.data.room.name}` : "Room not found" };
}

export default async function ModerationPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { slug } = await params;
  const user = await getCurrentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(`/r/${slug}/moderation`)}`);
  const { supabase, result: found } = await loadRoom(slug);
  if (!found.ok && found.error.kind === "not_found") notFound();
  if (!found.ok) {
    return (
      <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16">
        <h1 className="text-2xl font-semibold tracking-tight">Moderation</h1>
        <Alert tone="error">{found.error.message}</Alert>
      </main>
    );
  }
  const { room } = found.data;
  const role = found.data.membership?.role ?? null;
  if (role !== "owner" && role !== "moderator") {
    return (
      <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16 sm:py-24">
        <h1 className="text-2xl font-semibold tracking-tight">Moderation is for the owner and moderators</h1>
        <p className="text-muted">
          Reports, bans and the moderation log of {room.name} are for its owner and moderators. To tell them about a post or comment, use
          Report next to it.
        </p>
        <div>
          <Link href={`/r/${room.slug}`} className={buttonClasses("primary")}>
            Back to the room
          </Link>
        </div>
      </main>
    );
  }

  const rawBefore = (await searchParams).before;
  const before = rawBefore && !Number.isNaN(Date.parse(rawBefore)) ? rawBefore : null;
  const [loaded, bans, timeouts] = await Promise.all([
    loadModerationPage(supabase, room.id, before),
    roomBans(supabase, room.id),
    roomTimeouts(supabase, room.id),
  ]);
  const isOwner = role === "owner";
  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
      <ModerationLive roomId={room.id} epoch={room.access_epoch} />
      <RefreshOnFocus />
      <div className="flex flex-col gap-1">
        <Link href={`/r/${room.slug}`} className={`text-sm ${linkClasses}`}>
          Back to {room.name}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Moderation</h1>
        <p className="text-muted">
          {isOwner ? "You own this room." : "You moderate this room."} Members and roles are in the{" "}
          <Link href={`/r/${room.slug}/settings`} className={linkClasses}>
            room&apos;s settings
          </Link>
          .
        </p>
      </div>
      {!loaded.ok ? (
        <Alert tone="error">{loaded.error}</Alert>
      ) : (
        <>
          <Card>
            <ModerationQueue items={loaded.data.queue} roomId={room.id} slug={room.slug} viewerId={user.id} />
          </Card>
          <Card>
            <Restrictions roomId={room.id} bans={bans} timeouts={timeouts} />
          </Card>
          <Card>
            <RoomRules
              roomId={room.id}
              slowModeSeconds={room.slow_mode_seconds}
              reportThreshold={room.report_threshold}
              isOwner={isOwner}
            />
          </Card>
          <Card>
            <BlockedTerms roomId={room.id} terms={loaded.data.terms} canEdit={isOwner} />
          </Card>
          <Card>
            <ModerationLog
              entries={loaded.data.log}
              olderHref={
                loaded.data.moreLog && loaded.data.log.length
                  ? `/r/${room.slug}/moderation?before=${encodeURIComponent(loaded.data.log[loaded.data.log.length - 1].createdAt)}#log-heading`
                  : null
              }
            />
          </Card>
        </>
      )}
    </main>
  );
}
