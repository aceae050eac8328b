"use client";

import { PageError } from "@/components/ui/page-error";

/** Any page without a boundary of its own (the rooms directory, account pages) that failed to render: said in words, with a retry; the header stays. */
export default function AppError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError error={error} reset={reset} what="this page" />;
}
