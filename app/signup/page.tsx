import type { Metadata } from "next";
import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { NarrowPage } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/redirect";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignupPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await getCurrentUser()) redirect(next);
  return (
    <NarrowPage
      title="Create your Cuepoint account"
      intro={
        <>
          Already have one?{" "}
          <Link href={`/login?next=${encodeURIComponent(next)}`} className={linkClasses}>
            Sign in
          </Link>
        </>
      }
    >
      <SignupForm next={next} />
    </NarrowPage>
  );
}
