import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { notFound } from "next/navigation";
import { Avatar } from "@/components/avatar";
import { Feed } from "@/components/posts/feed";
import { GateBadge } from "@/components/rooms/gate-badge";
import { GateRequirement } from "@/components/rooms/gate-requirement";
import { LiveSessionBanner } from "@/components/rooms/live-session-banner";
import { LazyHereNowAvatars, LazyMembershipForm, LazyStartSessionForm } from "@/components/rooms/member-parts";
import { MembershipNotice } from "@/components/rooms/membership-notice";
import { MuteButton } from "@/components/notifications/mute-button";
import { BanNotice } from "@/components/moderation/ban-notice";
import { memberCountText } from "@/components/rooms/room-card";
import { RoomCover } from "@/components/rooms/room-cover";
import { mayStartSession } from "@/components/sessions/listen-together";
import { RecentReplays } from "@/components/sessions/recent-replays";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { WalletAddress } from "@/components/wallet-address";
import { presenceSelf } from "@/lib/realtime/presence";
import { shortChecksummedAddress } from "@/lib/chain/address";
import { decodeCursor } from "@/lib/posts/cursor";
import { roomHasLiveSession } from "@/lib/sessions/live";
import type { RoomDetails, RoomGate } from "@/lib/rooms/queries";
import { gateDetails } from "@/lib/rooms/gate-details";
import { loadRoom, loadRoomAccess } from "@/lib/rooms/room-loader";
import { roomStanding } from "@/lib/moderation/queries";
import { isBanned } from "@/lib/moderation/standing";
import { recordRoomVisit } from "@/lib/rooms/visits";
import { previewMetadata } from "@/lib/previews/metadata";
import { roomPagePreview } from "@/lib/previews/queries";

type Params = Promise<{ slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const slug = (await params).slug;
  // The link preview (Open Graph, X card) is the room as a visitor sees it, whoever asks.
  const [{ result }, preview] = await Promise.all([loadRoom(slug), roomPagePreview(slug).then(previewMetadata)]);
  return { title: result.ok ? result.data.room.name : "Room not found", ...preview };
}

/**
 * "Holders of at least 1 CUEPASS on Local chain", the token by name and symbol on its chain, and where
 * to find it (lib/rooms/gate-details.ts; a slow chain holds the page for 3 s at most).
 */
async function gateText(gate: RoomGate): Promise<React.ReactNode> {
  return <GateRequirement details={await gateDetails(gate)} />;
}

export default async function RoomPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const slug = (await params).slug;
  const before = (await searchParams).before;
  const { supabase, user, result } = await loadRoom(slug);
  if (!result.ok) {
    if (result.error.kind === "not_found") notFound();
    return (
      <main id="main" className="mx-auto w-full max-w-3xl px-4 py-10">
        <Alert tone="error">{result.error.message}</Alert>
      </main>
    );
  }
  const { room, owner, gate } = result.data;
  const [access, requirement, ownerWallets, liveSession] = await Promise.all([
    loadRoomAccess(slug),
    gate ? gateText(gate) : null,
    owner ? supabase.rpc("profile_wallets", { profile_id: owner.id }).then(({ data }) => data ?? []) : [],
    roomHasLiveSession(supabase, room.id),
    // "new since your last visit" on the home page counts from here (members only)
    recordRoomVisit(slug),
  ]);
  const { membership, notice, lapsed, canManage, canRead: canReadContent } = access;
  const gated = room.visibility === "gated";
  const ownerWallet = ownerWallets.find((wallet) => wallet.ens_name) ?? ownerWallets[0];

  const isMember = membership !== null;
  // A signed-in visitor may have been banned: they read a public room, told so, and are offered no Join.
  const standing = user && !isMember ? await roomStanding(supabase, room.id) : null;
  const banned = standing !== null && isBanned(standing);
  const mayStart = membership !== null && mayStartSession(membership.role, room.session_starters === "members" ? "members" : "moderators");

  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-4 sm:gap-6 sm:py-8">
      <section aria-labelledby="room-name" className="flex flex-col gap-3">
        <div className="flex items-start gap-3 sm:gap-4">
          <div className="w-16 shrink-0 overflow-hidden rounded-xl sm:w-24">
            <RoomCover
              path={room.cover_path}
              name={room.name}
              size={{ maxWidth: 96, aspect: 1 }}
              sizes="(min-width: 640px) 96px, 64px"
              className="aspect-square"
            />
          </div>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <h1 id="room-name" className="text-xl font-semibold leading-tight tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
              {room.name}
            </h1>
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted">
              {/* a lapse just now removed one membership the room row was read with */}
              <span>{memberCountText(room.member_count - (lapsed ? 1 : 0))}</span>
              <GateBadge gate={gate} />
            </p>
            {room.description ? (
              <p className="line-clamp-2 whitespace-pre-line text-sm [overflow-wrap:anywhere]">{room.description}</p>
            ) : null}
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          <section
            aria-labelledby="membership"
            className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2"
            data-testid="room-membership"
          >
            <h2 id="membership" className="sr-only">
              {gated ? "Who may join" : "Membership"}
            </h2>
            {banned ? (
              <BanNotice until={standing.bannedUntil} />
            ) : (
              <MembershipStatus
                roomId={room.id}
                slug={room.slug}
                gated={gated}
                signedIn={user !== null}
                membership={membership}
                requirement={requirement}
              />
            )}
          </section>
          <div className="flex flex-wrap items-center gap-2">
            <MuteButton target={{ roomId: room.id }} show={user !== null && canReadContent} />
            {mayStart && !liveSession ? (
              // thumb-sized here, whatever the form's own button is
              <div className="[&_button]:min-h-11">
                <LazyStartSessionForm roomId={room.id} slug={room.slug} />
              </div>
            ) : null}
            {canManage ? (
              // not prefetched: most visits never open settings
              <Link href={`/r/${room.slug}/settings`} prefetch={false} className={buttonClasses("ghost", "min-h-11")}>
                <span aria-hidden="true">⚙</span> Settings
              </Link>
            ) : null}
          </div>
        </div>
        {canReadContent ? (
          <LazyHereNowAvatars
            room={{ id: room.id, slug: room.slug, gated }}
            self={membership && user?.profile ? presenceSelf(user.profile) : null}
          />
        ) : null}
        {liveSession && !banned ? (
          <LiveSessionBanner room={{ id: room.id, slug: room.slug }} isMember={isMember} signedIn={user !== null} />
        ) : null}
        {canReadContent ? (
          <Suspense fallback={null}>
            <RecentReplays supabase={supabase} room={{ id: room.id, slug: room.slug }} />
          </Suspense>
        ) : null}
      </section>

      <MembershipNotice notice={notice} lapsed={lapsed} />

      <Feed
        room={{ id: room.id, slug: room.slug, gated }}
        canRead={canReadContent}
        isMember={isMember}
        signedIn={user !== null}
        userId={user?.id ?? null}
        cursor={decodeCursor(before)}
        composerPrimary={!liveSession && !mayStart}
      />

      {owner ? (
        <details className="rounded-2xl border border-line bg-raised" data-testid="room-about">
          <summary className="flex min-h-11 cursor-pointer items-center px-4 py-3 font-semibold sm:px-5">About this room</summary>
          <div className="flex flex-col gap-4 border-t border-line p-4 sm:p-5">
            {owner ? (
              <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
                <span className="text-muted">Run by</span>
                <Link href={`/u/${owner.username}`} className="flex min-h-11 min-w-0 items-center gap-2 font-medium hover:text-accent">
                  <Avatar path={owner.avatar_path} name={owner.display_name} size={28} />
                  <span className="truncate">{owner.display_name}</span>
                </Link>
                {ownerWallet ? (
                  <WalletAddress
                    address={ownerWallet.address}
                    ensName={ownerWallet.ens_name}
                    ensAvatar={ownerWallet.ens_avatar}
                    size={20}
                  />
                ) : null}
              </div>
            ) : null}
          </div>
        </details>
      ) : null}
    </main>
  );
}

/** The person's place in the room, in one line of the header: how to join, or that they belong (and Leave). */
function MembershipStatus({
  roomId,
  slug,
  gated,
  signedIn,
  membership,
  requirement,
}: {
  roomId: string;
  slug: string;
  gated: boolean;
  signedIn: boolean;
  membership: RoomDetails["membership"];
  requirement: React.ReactNode;
}) {
  const who = gated && requirement ? <div className="text-sm">{requirement}</div> : null;
  if (!signedIn) {
    return (
      <>
        <Link href={`/login?next=${encodeURIComponent(`/r/${slug}`)}`} className={buttonClasses("primary", "min-h-11")}>
          Sign in to join
        </Link>
        {who}
      </>
    );
  }
  if (membership?.role === "owner") {
    return (
      <>
        <p className="text-sm text-muted">You own this room.</p>
        {who}
      </>
    );
  }
  if (membership) {
    return (
      <>
        {who}
        <p className="text-sm text-muted">
          You&apos;re {membership.role === "moderator" ? "a moderator" : "a member"} of this room
          {membership.verified_wallet ? (
            <>
              {" "}
              through <span className="whitespace-nowrap font-mono">{shortChecksummedAddress(membership.verified_wallet)}</span>
            </>
          ) : null}
          .
        </p>
        <LazyMembershipForm roomId={roomId} mode="leave" gated={gated} />
      </>
    );
  }
  return (
    <>
      <LazyMembershipForm roomId={roomId} mode="join" gated={gated} />
      {gated ? (
        <div className="flex flex-col gap-1 text-sm">
          {requirement}
          <p className="text-muted">Joining checks the balances of the wallets linked to your account.</p>
        </div>
      ) : null}
    </>
  );
}
