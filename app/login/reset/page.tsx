import type { Metadata } from "next";
import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { ResetRequestForm } from "@/components/auth/reset-request-form";
import { NarrowPage } from "@/components/ui/card";

export const metadata: Metadata = { title: "Reset your password" };

export default function ResetPage() {
  return (
    <NarrowPage
      title="Reset your password"
      intro={
        <>
          We&apos;ll email you a link to set a new one.{" "}
          <Link href="/login" className={linkClasses}>
            Back to sign in
          </Link>
        </>
      }
    >
      <ResetRequestForm />
    </NarrowPage>
  );
}
