"use client";

import "./globals.css";

/**
 * The last error boundary: the root layout itself failed. It replaces the whole document, so it
 * brings its own <html> and <body>, and keeps to plain markup.
 */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <main id="main" className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-16 sm:py-24">
          <h1 className="text-2xl font-semibold tracking-tight">Cuepoint couldn&apos;t load this page</h1>
          <p>Something went wrong on our side. Try again in a moment.</p>
          <div className="flex flex-wrap gap-3">
            <button type="button" onClick={reset} className="rounded-lg bg-accent px-4 py-2 font-medium text-white">
              Try again
            </button>
            {/* a full reload, not a client-side navigation: the app's own code is what failed */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a document load on purpose (see above) */}
            <a href="/" className="rounded-lg border border-line px-4 py-2 font-medium">
              Go to the rooms
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
