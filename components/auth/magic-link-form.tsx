"use client";

import { useState } from "react";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { emailRedirect } from "@/lib/auth/links";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { emailOnlyRules } from "@/lib/validation/auth";

export function MagicLinkForm({ next }: { next: string }) {
  const form = useFormFields(emailOnlyRules, { email: "" });
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    setPending(true);
    const supabase = await loadSupabase().catch(() => null);
    if (!supabase) {
      setPending(false);
      return form.setFormError(networkMessage);
    }
    const { error } = await supabase.auth.signInWithOtp({
      email: input.email,
      options: { emailRedirectTo: emailRedirect(next), shouldCreateUser: false },
    });
    setPending(false);
    if (error) form.setFormError(authErrorMessage(error));
    else setSentTo(input.email);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="magic-link">
      <h2 id="magic-link" className="text-lg font-semibold">
        Email me a sign-in link
      </h2>
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      {sentTo ? <Alert tone="success">Check {sentTo}: the link in it signs you in. It works once, for one hour.</Alert> : null}
      <TextField id="magic-email" label="Email" type="email" autoComplete="email" inputMode="email" {...form.bind("email")} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? "Sending…" : "Send me a link"}
      </Button>
    </form>
  );
}
