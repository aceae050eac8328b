import type { Metadata } from "next";
import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { MagicLinkForm } from "@/components/auth/magic-link-form";
import { PasswordSignInForm } from "@/components/auth/password-sign-in-form";
import { WalletSignIn } from "@/components/auth/wallet-sign-in";
import { NarrowPage } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/redirect";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await getCurrentUser()) redirect(next);
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
        <PasswordSignInForm />
        <hr className="border-line" />
        <MagicLinkForm next={next} />
        <hr className="border-line" />
        <WalletSignIn clientId={process.env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID ?? null} />
      </div>
    </NarrowPage>
  );
}
