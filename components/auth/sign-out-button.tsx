"use client";

import { useState } from "react";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Button } from "@/components/ui/button";

/** Signs out this browser; the SIGNED_OUT handler then clears state and goes to `/`. */
export function SignOutButton({ variant = "secondary" }: { variant?: "secondary" | "ghost" }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col">
      <Button
        variant={variant}
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setError(null);
          const supabase = await loadSupabase().catch(() => null);
          const { error: failure } = supabase ? await supabase.auth.signOut({ scope: "local" }) : { error: true };
          if (failure) {
            setError("We couldn't sign you out — check your connection and try again.");
            setPending(false);
          }
        }}
      >
        {pending ? "Signing out…" : "Sign out"}
      </Button>
      {error ? (
        <span role="alert" className="mt-1 text-sm text-danger">
          {error}
        </span>
      ) : null}
    </span>
  );
}
