"use client";

import Link from "next/link";
import { useState } from "react";
import { loadSupabase } from "@/components/supabase-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { setPasswordRules } from "@/lib/validation/auth";

export function SetPasswordForm() {
  const form = useFormFields(setPasswordRules, { password: "", confirm: "" });
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

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
        Your new password is saved. <Link href="/account" className="underline">Back to your account</Link>
      </Alert>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField id="password" label="New password" type="password" autoComplete="new-password" hint="At least 8 characters." {...form.bind("password")} />
      <TextField id="confirm" label="Repeat the new password" type="password" autoComplete="new-password" {...form.bind("confirm")} />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save new password"}
      </Button>
    </form>
  );
}
