"use client";

import { PageError } from "@/components/ui/page-error";

/** A profile (its posts and comments come from many rooms) that failed to render. */
export default function ProfileError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError error={error} reset={reset} what="this profile" />;
}
