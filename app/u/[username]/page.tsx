import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Avatar } from "@/components/avatar";
import { WalletAddress } from "@/components/wallet-address";
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

export default async function PublicProfilePage({ params }: { params: Params }) {
  const profile = await loadProfile((await params).username);
  if (!profile) notFound();
  const supabase = await createClient();
  const { data: wallets } = await supabase.rpc("profile_wallets", { profile_id: profile.id });
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
    </main>
  );
}
