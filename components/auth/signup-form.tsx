"use client";

import { useActionState, useState } from "react";
import { signUpAction } from "@/lib/auth/actions";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";
import { emailRedirect } from "@/lib/auth/links";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { signUpRules } from "@/lib/validation/auth";
import { ResendConfirmation } from "./resend-confirmation";

/** Posts to signUpAction without JavaScript; with it, signs up through the browser client. */
export function SignupForm({ next }: { next: string }) {
  const [server, action] = useActionState(signUpAction, idleFormState);
  const form = useFormFields(signUpRules, { email: "", password: "" }, server);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(server.status === "sent" ? (server.values.email ?? null) : null);

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
    const { data, error } = await supabase.auth.signUp({ ...input, options: { emailRedirectTo: emailRedirect(next) } });
    setPending(false);
    if (error) return form.setFormError(authErrorMessage(error));
    // With confirmations on, Supabase answers an existing address like a new one (no session, no identities).
    if (data.user && data.user.identities?.length === 0)
      return form.setFormError(authErrorMessage({ code: "user_already_exists", message: "", status: 422, name: "AuthApiError" }));
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
    <form action={action} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <input type="hidden" name="next" value={next} />
      <TextField id="email" label="Email" type="email" autoComplete="email" inputMode="email" {...form.bind("email")} />
      <TextField
        id="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        {...form.bind("password")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
