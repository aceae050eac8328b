import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { NarrowPage } from "@/components/ui/card";
import { type LinkErrorReason, linkErrorReasons } from "@/lib/auth/messages";

export const metadata: Metadata = { title: "That link didn't work" };

export default async function AuthErrorPage({ searchParams }: { searchParams: Promise<{ reason?: string }> }) {
  const requested = (await searchParams).reason;
  const reason: LinkErrorReason = requested && requested in linkErrorReasons ? (requested as LinkErrorReason) : "invalid";
  const { title, body } = linkErrorReasons[reason];
  return (
    <NarrowPage title={title}>
      <div className="flex flex-col gap-4">
        <p>{body}</p>
        <div className="flex flex-wrap gap-3">
          <Link href="/login" className={buttonClasses("primary")}>
            Send a new sign-in link
          </Link>
          <Link href="/login/reset" className={buttonClasses("secondary")}>
            Reset your password
          </Link>
        </div>
      </div>
    </NarrowPage>
  );
}
