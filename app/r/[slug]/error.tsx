"use client";

import { PageError } from "@/components/ui/page-error";

/** A room, a post or a listening session that failed to render: said in words, with a retry. */
export default function RoomError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError error={error} reset={reset} what="this room" />;
}
