"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button, buttonClasses } from "@/components/ui/button";

/**
 * What a route segment shows when something in it failed to render (an error boundary's body): what
 * happened, in words, with a way to try again and a way out. The header and the rest of the site
 * stay; the error goes to the console for whoever looks into it, never to the person.
 */
export function PageError({ error, reset, what }: { error: Error & { digest?: string }; reset: () => void; what: string }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16 sm:py-24">
      <h1 className="text-2xl font-semibold tracking-tight">Part of this page couldn&apos;t be shown</h1>
      <p className="text-muted">
        Something in {what} couldn&apos;t be displayed. Try again; if it keeps happening, the rest of the site still works.
      </p>
      <div className="flex flex-wrap gap-3">
        <Button onClick={reset}>Try again</Button>
        <Link href="/" className={buttonClasses("secondary")}>
          Go to the rooms
        </Link>
      </div>
    </main>
  );
}
