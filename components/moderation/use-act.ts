"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { networkMessage } from "@/lib/auth/messages";
import { type Result, fail } from "@/lib/result";

/**
 * Runs one moderation write (a server action answering Result); on success the page's server data is
 * read again, so what changed (the queue, the lists, the log) shows at once. The refusal, in words, stays.
 */
export function useAct() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function run(write: () => Promise<Result<unknown>>, said: string | null = null, after?: () => void) {
    setError(null);
    setDone(null);
    startTransition(async () => {
      const result = await write().catch(() => fail(networkMessage));
      if (!result.ok) return setError(result.error);
      setDone(said);
      after?.();
      router.refresh();
    });
  }

  return { run, pending, error, done };
}
