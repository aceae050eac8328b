import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { RecoveryCodeForm } from "@/components/auth/recovery-code-form";
import { SignInCodeForm } from "@/components/auth/sign-in-code-form";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { NarrowPage } from "@/components/ui/card";
import { owesSecondFactor } from "@/lib/auth/mfa";
import { safeNextPath } from "@/lib/auth/redirect";
import { createClient } from "@/lib/supabase/server";

export const metadata: Metadata = { title: "Enter your sign-in code" };

/** Signed in with a password, the account has an authenticator: the code before anything else. */
export default async function SignInCodePage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  const supabase = await createClient();
  const { data } = await supabase.auth.getClaims();
  if (!data) redirect(`/login?next=${encodeURIComponent(next)}`);
  const { data: current } = await supabase.auth.getSession();
  if (!owesSecondFactor(data.claims.aal, current.session)) redirect(next);
  return (
    <NarrowPage
      title="Two-factor authentication"
      intro="Your account is protected with an authenticator app. Enter its code to finish signing in."
    >
      <div className="flex flex-col gap-6">
        <SignInCodeForm next={next} />
        <RecoveryCodeForm />
        <hr className="border-line" />
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted">
          <span>Not you?</span>
          <SignOutButton variant="ghost" />
        </div>
      </div>
    </NarrowPage>
  );
}
