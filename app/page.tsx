import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { getCurrentUser } from "@/lib/auth/current-user";

export default async function HomePage() {
  const user = await getCurrentUser();
  return (
    <main id="main" className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-12 sm:py-20">
      <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Cuepoint</h1>
      <p className="max-w-2xl text-lg text-muted">Share music and video with your community, and talk about the exact moments in them — live.</p>
      {user ? null : (
        <div className="flex flex-wrap gap-3">
          <Link href="/signup" className={buttonClasses("primary")}>
            Create your account
          </Link>
          <Link href="/login" className={buttonClasses("secondary")}>
            Sign in
          </Link>
        </div>
      )}
    </main>
  );
}
