"use client";

import { useState } from "react";
import { loadSupabase } from "@/components/supabase-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { confirmRedirect } from "@/lib/auth/links";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { signUpRules } from "@/lib/validation/auth";
import { ResendConfirmation } from "./resend-confirmation";

export function SignupForm({ next }: { next: string }) {
  const form = useFormFields(signUpRules, { email: "", password: "" });
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
    const { data, error } = await supabase.auth.signUp({ ...input, options: { emailRedirectTo: confirmRedirect(next) } });
    setPending(false);
    if (error) return form.setFormError(authErrorMessage(error));
    // With confirmations on, Supabase answers an existing address like a new one (no session, no identities).
    if (data.user && data.user.identities?.length === 0) return form.setFormError(authErrorMessage({ code: "user_already_exists", message: "", status: 422, name: "AuthApiError" }));
    if (!data.session) setSentTo(input.email);
  }

  if (sentTo) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success">
          We sent a confirmation link to <strong>{sentTo}</strong>. Open it to finish creating your account.
        </Alert>
        <ResendConfirmation email={sentTo} />
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField id="email" label="Email" type="email" autoComplete="email" inputMode="email" {...form.bind("email")} />
      <TextField id="password" label="Password" type="password" autoComplete="new-password" hint="At least 8 characters." {...form.bind("password")} />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
