"use client";

import { useActionState, useState } from "react";
import { resetRequestAction } from "@/lib/auth/actions";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";
import { emailRedirect } from "@/lib/auth/links";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { emailOnlyRules } from "@/lib/validation/auth";

/** Posts to resetRequestAction without JavaScript; with it, asks through the browser client. */
export function ResetRequestForm() {
  const [server, action] = useActionState(resetRequestAction, idleFormState);
  const form = useFormFields(emailOnlyRules, { email: "" }, server);
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
    const { error } = await supabase.auth.resetPasswordForEmail(input.email, { redirectTo: emailRedirect("/account/password") });
    setPending(false);
    if (error) form.setFormError(authErrorMessage(error));
    else setSentTo(input.email);
  }

  return (
    <form action={action} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      {sentTo ? <Alert tone="success">If {sentTo} has an account, a link to set a new password is on its way.</Alert> : null}
      <TextField id="email" label="Email" type="email" autoComplete="email" inputMode="email" {...form.bind("email")} />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send me a reset link"}
      </Button>
    </form>
  );
}
