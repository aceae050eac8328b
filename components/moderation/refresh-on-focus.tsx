"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Reads the page's server data again when the tab comes back into view and every `seconds` while it
 * is shown: how the moderation page keeps its queue current without a channel of its own.
 */
export function RefreshOnFocus({ seconds = 15 }: { seconds?: number }) {
  const router = useRouter();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === "visible" && navigator.onLine) router.refresh();
    };
    const timer = setInterval(refresh, seconds * 1000);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [router, seconds]);
  return null;
}
