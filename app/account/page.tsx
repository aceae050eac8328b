import type { Metadata } from "next";
import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { AvatarUploader } from "@/components/account/avatar-uploader";
import { ProfileForm } from "@/components/account/profile-form";
import { PasskeysSection } from "@/components/account/passkeys-section";
import { TwoFactorSection } from "@/components/account/two-factor-section";
import { NotificationSettingsSection } from "@/components/notifications/settings-section";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { Card } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { publicEnv } from "@/lib/env";
import { sessionFactors } from "@/lib/auth/mfa";
import { recoveryStatus } from "@/lib/auth/queries";
import { accountPasskeys } from "@/lib/passkeys/queries";
import { shortAddress } from "@/lib/auth/web3-identity";
import { serverChainCredentials } from "@/lib/chain/server-credentials";
import { createClient } from "@/lib/supabase/server";
import { namesNeedRefresh } from "@/lib/wallets/ens-freshness";
import { WalletsSection } from "@/components/wallets/wallets-section";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login?next=/account");
  const profile = user.profile;
  const supabase = await createClient();
  const { data: wallets } = await supabase.from("wallets").select("address, ens_name, ens_avatar, ens_checked_at").order("verified_at");
  const chain = serverChainCredentials();
  const { data: current } = await supabase.auth.getSession();
  const authenticator = sessionFactors(current.session).find((factor) => factor.factor_type === "totp");
  const recovery = await recoveryStatus(supabase);
  const passkeys = await accountPasskeys(supabase);
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
          <p className="text-muted [overflow-wrap:anywhere]">
            {user.email ??
              (user.walletAddress ? (
                <>
                  Signed in with an Ethereum wallet,{" "}
                  <span title={user.walletAddress} className="whitespace-nowrap font-mono">
                    {shortAddress(user.walletAddress)}
                  </span>
                </>
              ) : (
                "Signed in with an Ethereum wallet"
              ))}
          </p>
        </div>
        {profile ? (
          <Link href={`/u/${profile.username}`} className={`text-sm ${linkClasses}`}>
            View your public profile
          </Link>
        ) : null}
      </div>
      {profile ? (
        <>
          <Card>
            <AvatarUploader userId={user.id} name={profile.display_name} currentPath={profile.avatar_path} />
          </Card>
          <Card>
            <h2 className="mb-4 text-lg font-semibold">Profile</h2>
            <ProfileForm
              initial={{ username: profile.username, displayName: profile.display_name, bio: profile.bio }}
              origin={new URL(publicEnv().siteUrl).host}
            />
          </Card>
        </>
      ) : (
        <Card>We couldn&apos;t load your profile — reload the page in a moment.</Card>
      )}
      <NotificationSettingsSection hasEmail={Boolean(user.email)} />
      <PasskeysSection passkeys={passkeys ?? []} unavailable={!passkeys} />
      <TwoFactorSection factorId={authenticator?.id ?? null} recovery={recovery} />
      <WalletsSection
        wallets={wallets ?? []}
        clientId={chain.ok ? chain.clientId : null}
        unavailable={chain.ok ? null : chain.error}
        namesStale={namesNeedRefresh(wallets ?? [])}
      />
      <Card className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">{user.email ? "Password and session" : "Session"}</h2>
          {user.email ? (
            <Link href="/account/password" className={`text-sm ${linkClasses}`}>
              Set a new password
            </Link>
          ) : null}
        </div>
        <SignOutButton />
      </Card>
    </main>
  );
}
