import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Avatar } from "@/components/avatar";
import { ProfileActivity } from "@/components/profiles/profile-activity";
import { ProfileRooms } from "@/components/profiles/profile-rooms";
import { Alert } from "@/components/ui/alert";
import { WalletAddress } from "@/components/wallet-address";
import { getCurrentUser } from "@/lib/auth/current-user";
import { decodeCursor } from "@/lib/posts/cursor";
import { getProfileActivity, getProfileRooms } from "@/lib/profiles/queries";
import { createClient } from "@/lib/supabase/server";

type Params = Promise<{ username: string }>;

async function loadProfile(username: string) {
  if (!/^[a-z0-9_]{3,24}$/.test(username)) return null;
  const supabase = await createClient();
  const { data } = await supabase
    .from("profiles")
    .select("id, username, display_name, bio, avatar_path, created_at")
    .eq("username", username)
    .maybeSingle();
  return data;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const profile = await loadProfile((await params).username);
  return { title: profile ? `${profile.display_name} (@${profile.username})` : "Profile not found" };
}

export default async function PublicProfilePage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<{ before?: string | string[] }>;
}) {
  const profile = await loadProfile((await params).username);
  if (!profile) notFound();
  // An older page of their posts and comments, as "Show more" leads without JavaScript.
  const before = decodeCursor((await searchParams).before);
  const supabase = await createClient();
  const [{ data: wallets }, rooms, activity, viewer] = await Promise.all([
    supabase.rpc("profile_wallets", { profile_id: profile.id }),
    getProfileRooms(supabase, profile.id),
    getProfileActivity(supabase, profile.id, before ? { before_created: before.createdAt, before_id: before.id } : null),
    getCurrentUser(),
  ]);
  const own = viewer?.id === profile.id;
  // eslint-disable-next-line react-hooks/purity -- a Server Component, rendered once per request: "5 min ago" counts from then
  const renderedAt = Date.now();
  const joined = new Date(profile.created_at).toLocaleDateString("en", { month: "long", year: "numeric" });
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex items-center gap-4">
        <Avatar path={profile.avatar_path} name={profile.display_name} size={88} />
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold tracking-tight">{profile.display_name}</h1>
          <p className="text-muted">@{profile.username}</p>
          <p className="text-sm text-muted">Joined {joined}</p>
        </div>
      </div>
      {profile.bio ? <p className="whitespace-pre-line">{profile.bio}</p> : null}
      {wallets?.length ? (
        <section aria-labelledby="profile-wallets" className="flex flex-col gap-2">
          <h2 id="profile-wallets" className="text-lg font-semibold">
            Wallets
          </h2>
          <ul className="flex flex-col gap-2">
            {wallets.map((wallet) => (
              <li key={wallet.address}>
                <WalletAddress address={wallet.address} ensName={wallet.ens_name} ensAvatar={wallet.ens_avatar} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="profile-rooms" className="flex flex-col gap-3">
        <h2 id="profile-rooms" className="text-lg font-semibold">
          Rooms
        </h2>
        {rooms.ok ? <ProfileRooms rooms={rooms.data} own={own} now={renderedAt} /> : <Alert tone="error">{rooms.error}</Alert>}
      </section>
      <section aria-labelledby="profile-activity" className="flex flex-col gap-3">
        <h2 id="profile-activity" className="text-lg font-semibold">
          Posts and comments
        </h2>
        <ProfileActivity
          profileId={profile.id}
          username={profile.username}
          paged={before !== null}
          initial={activity.ok ? activity.data : []}
          initialError={activity.ok ? null : activity.error}
          own={own}
          renderedAt={renderedAt}
        />
      </section>
    </main>
  );
}
