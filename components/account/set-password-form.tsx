"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { setPasswordAction } from "@/lib/auth/actions";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { setPasswordRules } from "@/lib/validation/auth";

/** Posts to setPasswordAction without JavaScript; with it, saves through the browser client. */
export function SetPasswordForm() {
  const [server, action] = useActionState(setPasswordAction, idleFormState);
  const form = useFormFields(setPasswordRules, { password: "", confirm: "" }, server);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(server.status === "done");

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
    const { error } = await supabase.auth.updateUser({ password: input.password });
    setPending(false);
    if (error) form.setFormError(authErrorMessage(error));
    else setDone(true);
  }

  if (done) {
    return (
      <Alert tone="success">
        Your new password is saved.{" "}
        <Link href="/account" className="underline">
          Back to your account
        </Link>
      </Alert>
    );
  }
  return (
    <form action={action} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField
        id="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        {...form.bind("password")}
      />
      <TextField id="confirm" label="Repeat the new password" type="password" autoComplete="new-password" {...form.bind("confirm")} />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save new password"}
      </Button>
    </form>
  );
}
