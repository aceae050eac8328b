import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GateRequirement } from "@/components/rooms/gate-requirement";
import { BanNotice } from "@/components/moderation/ban-notice";
import { MembershipNotice } from "@/components/rooms/membership-notice";
import { SessionPage } from "@/components/sessions/session-page";
import { Alert } from "@/components/ui/alert";
import { linkClasses } from "@/components/ui/link";
import { roomStanding } from "@/lib/moderation/queries";
import { isBanned } from "@/lib/moderation/standing";
import { type GateDetails, gateDetails } from "@/lib/rooms/gate-details";
import { loadRoom, loadRoomAccess } from "@/lib/rooms/room-loader";
import { getLiveSession, getSessionPosts } from "@/lib/sessions/queries";
import { mediaArtwork } from "@/lib/player/artwork";
import type { ListenerSelf } from "@/lib/sessions/use-listening-session";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { result } = await loadRoom((await params).slug);
  return { title: result.ok ? `Listen together · ${result.data.room.name}` : "Room not found" };
}

/** The room's listening session: the player everyone follows, the host's controls, who is listening. */
export default async function ListenPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { supabase, user, result } = await loadRoom(slug);
  if (!result.ok) {
    if (result.error.kind === "not_found") notFound();
    return (
      <main id="main" className="mx-auto w-full max-w-3xl px-4 py-10">
        <Alert tone="error">{result.error.message}</Alert>
      </main>
    );
  }
  const { room, gate } = result.data;
  const [{ membership, notice, lapsed }, gateShown] = await Promise.all([
    loadRoomAccess(slug),
    gate && room.visibility === "gated" ? gateDetails(gate) : null,
  ]);
  const whoMayJoin = gateShown ? <WhoMayJoin details={gateShown} /> : null;
  const roomLink = (
    <Link href={`/r/${room.slug}`} className={`text-sm ${linkClasses}`}>
      ← {room.name}
    </Link>
  );
  const heading = <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Listen together</h1>;
  if (!membership || !user?.profile) {
    // A signed-in person who was banned is told so, with no invitation to join.
    const standing = user && !membership ? await roomStanding(supabase, room.id) : null;
    if (standing && isBanned(standing)) {
      return (
        <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:py-10">
          {roomLink}
          {heading}
          <BanNotice until={standing.bannedUntil} />
        </main>
      );
    }
    return (
      <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:py-10">
        {roomLink}
        {heading}
        <MembershipNotice notice={notice} lapsed={lapsed} />
        <section
          aria-labelledby="members-only"
          className="flex flex-col gap-2 rounded-2xl border border-dashed border-line px-5 py-8 text-center"
        >
          <h2 id="members-only" className="text-lg font-semibold">
            Only members can listen together
          </h2>
          <p className="text-muted">
            {user ? "Join the room to listen along with everyone in it." : "Sign in and join the room to listen along with everyone in it."}
          </p>
        </section>
        {whoMayJoin}
      </main>
    );
  }

  const [live, posts, wallet] = await Promise.all([
    getLiveSession(supabase, room.id),
    getSessionPosts(supabase, room.id),
    supabase.from("wallets").select("ens_name, ens_avatar").eq("user_id", user.id).not("ens_name", "is", null).limit(1).maybeSingle(),
  ]);
  const role = membership.role;
  const self: ListenerSelf = {
    user_id: user.id,
    username: user.profile.username,
    display_name: user.profile.display_name,
    avatar_path: user.profile.avatar_path,
    ens_name: wallet.data?.ens_name ?? null,
    ens_avatar: wallet.data?.ens_avatar ?? null,
    role,
  };
  const canStart = role === "owner" || role === "moderator" || room.session_starters === "members";
  return (
    <main id="main" className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:py-10">
      {roomLink}
      {heading}
      <SessionPage
        setup={{
          room: {
            id: room.id,
            slug: room.slug,
            name: room.name,
            gated: room.visibility === "gated",
            turnMaxSeconds: room.dj_turn_max_seconds,
            skipShare: Number(room.skip_share),
          },
          self,
          canStart,
          initial: live,
        }}
        posts={posts}
        cover={mediaArtwork(null, room.cover_path)}
      />
      {whoMayJoin}
    </main>
  );
}

/** A gated room's requirement, by the token's name, symbol and chain, with where to find it. */
function WhoMayJoin({ details }: { details: GateDetails }) {
  return (
    <section aria-labelledby="who-may-join" className="flex flex-col gap-2 border-t border-line pt-6">
      <h2 id="who-may-join" className="text-base font-semibold">
        Who may join
      </h2>
      <GateRequirement details={details} />
    </section>
  );
}
