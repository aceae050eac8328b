import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { CoverUploader } from "@/components/rooms/settings/cover-uploader";
import { GateSection } from "@/components/rooms/settings/gate-section";
import { DeleteRoomForm } from "@/components/rooms/settings/delete-room-form";
import { MembersList } from "@/components/rooms/settings/members-list";
import { RoomFieldsForm } from "@/components/rooms/settings/room-fields-form";
import { SessionStartersForm, SessionStartersSummary } from "@/components/rooms/settings/session-starters-form";
import { SessionRulesForm } from "@/components/rooms/settings/session-rules-form";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { linkClasses } from "@/components/ui/link";
import { getCurrentUser } from "@/lib/auth/current-user";
import { loadRoomMembers } from "@/lib/rooms/members";
import { loadRoom } from "@/lib/rooms/room-loader";
import { sessionStarterChoices, type SessionStarters } from "@/lib/rooms/session-starters";

type Params = Promise<{ slug: string }>;
type Search = Promise<{ moved?: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { result } = await loadRoom((await params).slug);
  return { title: result.ok ? `Settings · ${result.data.room.name}` : "Room not found" };
}

export default async function RoomSettingsPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { slug } = await params;
  // Signed out: to sign in first, whether or not the room exists (the loader has the same cached user).
  const user = await getCurrentUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(`/r/${slug}/settings`)}`);
  const { supabase, result: found } = await loadRoom(slug);
  if (!found.ok && found.error.kind === "not_found") notFound();
  if (!found.ok) {
    return (
      <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16">
        <h1 className="text-2xl font-semibold tracking-tight">Room settings</h1>
        <Alert tone="error">{found.error.message}</Alert>
      </main>
    );
  }
  const { room, gate } = found.data;
  // The membership as stored: only an owner's or a moderator's opens the settings, and those never lapse.
  const role = found.data.membership?.role ?? null;

  if (role !== "owner" && role !== "moderator") {
    return (
      <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16 sm:py-24">
        <h1 className="text-2xl font-semibold tracking-tight">Only the owner and moderators can change this room</h1>
        <p className="text-muted">
          The settings of {room.name} are for its owner and moderators. Ask the owner if you think you should be one.
        </p>
        <div>
          <Link href={`/r/${room.slug}`} className={buttonClasses("primary")}>
            Back to the room
          </Link>
        </div>
      </main>
    );
  }

  const members = await loadRoomMembers(supabase, room.id);
  const moved = (await searchParams).moved === "1";
  const isOwner = role === "owner";
  const sessionStarters: SessionStarters = sessionStarterChoices.find((choice) => choice === room.session_starters) ?? "moderators";
  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-1">
        <Link href={`/r/${room.slug}`} className={`text-sm ${linkClasses}`}>
          Back to {room.name}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Room settings</h1>
        <p className="text-muted">
          {isOwner ? "You own this room." : "You moderate this room."} Its address is <span className="font-mono">/r/{room.slug}</span>.
        </p>
        <p>
          <Link href={`/r/${room.slug}/moderation`} className={`text-sm ${linkClasses}`}>
            Reports, bans and the moderation log
          </Link>
        </p>
      </div>
      {moved ? <Alert tone="success">Room saved. Its address is now /r/{room.slug}.</Alert> : null}
      <Card>
        <CoverUploader roomId={room.id} roomName={room.name} currentPath={room.cover_path} />
      </Card>
      <Card>
        <RoomFieldsForm
          roomId={room.id}
          initial={{ name: room.name, description: room.description, ...(isOwner ? { slug: room.slug } : {}) }}
          canEditSlug={isOwner}
        />
      </Card>
      <Card>
        {isOwner ? <SessionStartersForm roomId={room.id} initial={sessionStarters} /> : <SessionStartersSummary value={sessionStarters} />}
      </Card>
      {isOwner ? (
        <Card>
          <SessionRulesForm
            roomId={room.id}
            initial={{
              mode: room.session_mode === "dj_turns" ? "dj_turns" : "host",
              turnMaxSeconds: room.dj_turn_max_seconds,
              skipShare: Number(room.skip_share),
            }}
          />
        </Card>
      ) : null}
      <Card>
        <GateSection roomId={room.id} gate={gate} isOwner={isOwner} />
      </Card>
      <Card>
        {members.ok ? (
          <MembersList roomId={room.id} viewer={{ id: user.id, role }} members={members.members} total={room.member_count} />
        ) : (
          <Alert tone="error">{members.error}</Alert>
        )}
      </Card>
      {isOwner ? (
        <Card className="border-danger/40">
          <DeleteRoomForm roomId={room.id} slug={room.slug} />
        </Card>
      ) : null}
    </main>
  );
}
