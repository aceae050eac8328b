"use client";

import { useState } from "react";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Button } from "@/components/ui/button";
import { emailRedirect } from "@/lib/auth/links";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";

/** Sends the sign-up confirmation email again. */
export function ResendConfirmation({ email }: { email: string }) {
  const [state, setState] = useState<"idle" | "sending" | "sent" | string>("idle");
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <Button
        variant="secondary"
        disabled={state === "sending" || !email}
        onClick={async () => {
          setState("sending");
          const supabase = await loadSupabase().catch(() => null);
          if (!supabase) return setState(networkMessage);
          const { error } = await supabase.auth.resend({
            type: "signup",
            email: email.trim().toLowerCase(),
            options: { emailRedirectTo: emailRedirect("/") },
          });
          setState(error ? authErrorMessage(error) : "sent");
        }}
      >
        {state === "sending" ? "Sending…" : "Send the confirmation email again"}
      </Button>
      <span role="status" className={state === "sent" ? "text-success" : "text-danger"}>
        {state === "sent" ? `Sent to ${email}.` : state !== "idle" && state !== "sending" ? state : ""}
      </span>
    </div>
  );
}
