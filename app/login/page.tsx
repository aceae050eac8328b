import type { Metadata } from "next";
import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { MagicLinkForm } from "@/components/auth/magic-link-form";
import { PasskeySignIn } from "@/components/auth/passkey-sign-in";
import { PasswordSignInForm } from "@/components/auth/password-sign-in-form";
import { WalletSignIn } from "@/components/auth/wallet-sign-in";
import { NarrowPage } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/redirect";
import { serverChainCredentials } from "@/lib/chain/server-credentials";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await getCurrentUser()) redirect(next);
  // The seed's rule decides whether wallet sign-in is on (a plain THIRDWEB_SECRET_KEY alone derives the clientId).
  const chain = serverChainCredentials();
  return (
    <NarrowPage
      title="Sign in to Cuepoint"
      intro={
        <>
          New here?{" "}
          <Link href={`/signup?next=${encodeURIComponent(next)}`} className={linkClasses}>
            Create an account
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-8">
        <PasswordSignInForm next={next} />
        <PasskeySignIn />
        <hr className="border-line" />
        <MagicLinkForm next={next} />
        <hr className="border-line" />
        <WalletSignIn clientId={chain.ok ? chain.clientId : null} unavailable={chain.ok ? null : chain.error} />
      </div>
    </NarrowPage>
  );
}
