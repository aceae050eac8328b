import Link from "next/link";
import { linkClasses } from "@/components/ui/link";

/**
 * A page that sends a visitor on to sign in at once (a meta refresh), with a link for a browser that
 * does not follow one. Used where an HTTP redirect would hide the page's own link preview: bots come
 * without a session and read this page's tags instead of the sign-in page's.
 */
export function SignInFirst({ href, what }: { href: string; what: string }) {
  return (
    <main id="main" className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-10">
      <meta httpEquiv="refresh" content={`0;url=${href}`} />
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to see {what}</h1>
      <p>
        <Link href={href} className={linkClasses}>
          Sign in
        </Link>{" "}
        and you&apos;ll come back here.
      </p>
    </main>
  );
}
