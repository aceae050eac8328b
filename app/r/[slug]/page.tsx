import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Avatar } from "@/components/avatar";
import { RoomLive } from "@/components/live/room-live";
import { Feed } from "@/components/posts/feed";
import { GateBadge } from "@/components/rooms/gate-badge";
import { LazyMembershipForm } from "@/components/rooms/member-parts";
import { MembershipNotice } from "@/components/rooms/membership-notice";
import { memberCountText } from "@/components/rooms/room-card";
import { RoomCover } from "@/components/rooms/room-cover";
import { ListenTogether } from "@/components/sessions/listen-together";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { WalletAddress } from "@/components/wallet-address";
import { presenceSelf } from "@/lib/realtime/presence";
import { shortChecksummedAddress } from "@/lib/chain/address";
import { decodeCursor } from "@/lib/posts/cursor";
import { gateRequirementText } from "@/lib/chain/tokens";
import { chainName, standardName } from "@/lib/rooms/chain-name";
import { roomHasLiveSession } from "@/lib/sessions/live";
import type { RoomDetails, RoomGate } from "@/lib/rooms/queries";
import { loadRoom, loadRoomAccess } from "@/lib/rooms/room-loader";

type Params = Promise<{ slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { result } = await loadRoom((await params).slug);
  return { title: result.ok ? result.data.room.name : "Room not found" };
}

/** "Holders of at least 1 CUEPASS on Local chain", read on chain; without an answer, the gate as stored. */
async function gateText(gate: RoomGate): Promise<string> {
  // A slow chain must not hold the page for long: after 3 s the gate shows as stored.
  const described = await gateRequirementText(
    { ...gate, standard: gate.standard as "erc20" | "erc721" | "erc1155" },
    { timeoutMs: 3_000 },
  ).catch(() => null);
  if (described?.ok) return `Holders of ${described.data.text.replace(/^At least/, "at least")}`;
  const item = gate.token_id === null ? "" : ` #${gate.token_id}`;
  return `Holders of ${standardName(gate.standard)} token${item} ${shortChecksummedAddress(gate.contract_address)} on ${chainName(gate.chain_id)}`;
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
  ]);
  const { membership, notice, lapsed, canManage, canRead: canReadContent } = access;
  const gated = room.visibility === "gated";
  const ownerWallet = ownerWallets.find((wallet) => wallet.ens_name) ?? ownerWallets[0];

  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:py-10">
      <div className="overflow-hidden rounded-2xl border border-line bg-raised shadow-sm">
        <RoomCover path={room.cover_path} name={room.name} className="aspect-[4/1] max-sm:aspect-[5/2]" />
        <div className="flex flex-col gap-4 p-5 sm:p-6">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="flex min-w-0 flex-col gap-1">
              <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">{room.name}</h1>
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted">
                {/* a lapse just now removed one membership the room row was read with */}
                <span>{memberCountText(room.member_count - (lapsed ? 1 : 0))}</span>
                <GateBadge gate={gate} />
              </p>
            </div>
            {canManage ? (
              // not prefetched: most visits never open settings
              <Link href={`/r/${room.slug}/settings`} prefetch={false} className={buttonClasses("secondary")}>
                Settings
              </Link>
            ) : null}
          </div>
          {room.description ? <p className="whitespace-pre-line [overflow-wrap:anywhere]">{room.description}</p> : null}
          {owner ? (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
              <span className="text-muted">Run by</span>
              <Link href={`/u/${owner.username}`} className="flex min-w-0 items-center gap-2 font-medium hover:text-accent">
                <Avatar path={owner.avatar_path} name={owner.display_name} size={28} />
                <span className="truncate">{owner.display_name}</span>
              </Link>
              {ownerWallet ? (
                <WalletAddress address={ownerWallet.address} ensName={ownerWallet.ens_name} ensAvatar={ownerWallet.ens_avatar} size={20} />
              ) : null}
            </div>
          ) : null}
        </div>
      </div>

      <MembershipNotice notice={notice} lapsed={lapsed} />

      <section aria-labelledby="membership" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-5 sm:p-6">
        <h2 id="membership" className="text-lg font-semibold">
          {gated ? "Who may join" : "Membership"}
        </h2>
        {gated ? <p>{requirement}</p> : <p className="text-muted">Open to everyone signed in.</p>}
        <MembershipStatus roomId={room.id} slug={room.slug} gated={gated} signedIn={user !== null} membership={membership} />
      </section>

      <ListenTogether
        room={{ id: room.id, slug: room.slug }}
        signedIn={user !== null}
        role={membership?.role ?? null}
        starters={room.session_starters === "members" ? "members" : "moderators"}
        live={liveSession}
      />

      {canReadContent ? (
        <RoomLive room={{ id: room.id, slug: room.slug, gated }} self={membership && user?.profile ? presenceSelf(user.profile) : null} />
      ) : null}

      <Feed
        room={{ id: room.id, slug: room.slug, gated }}
        canRead={canReadContent}
        isMember={membership !== null}
        signedIn={user !== null}
        userId={user?.id ?? null}
        cursor={decodeCursor(before)}
      />
    </main>
  );
}

function MembershipStatus({
  roomId,
  slug,
  gated,
  signedIn,
  membership,
}: {
  roomId: string;
  slug: string;
  gated: boolean;
  signedIn: boolean;
  membership: RoomDetails["membership"];
}) {
  if (!signedIn) {
    return (
      <div>
        <Link href={`/login?next=${encodeURIComponent(`/r/${slug}`)}`} className={buttonClasses("primary")}>
          Sign in to join
        </Link>
      </div>
    );
  }
  if (membership?.role === "owner") return <p className="text-sm text-muted">You own this room.</p>;
  if (membership) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm">
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
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {gated ? <p className="text-sm text-muted">Joining checks the balances of the wallets linked to your account.</p> : null}
      <LazyMembershipForm roomId={roomId} mode="join" gated={gated} />
    </div>
  );
}
