"use client";

import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import { useActionState, useState } from "react";
import { signInAction } from "@/lib/auth/actions";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";
import { authErrorMessage, networkMessage } from "@/lib/auth/messages";
import { useFormFields } from "@/lib/auth/use-form-fields";
import { signInRules } from "@/lib/validation/auth";
import { ResendConfirmation } from "./resend-confirmation";

/**
 * Without JavaScript the form POSTs to a Server Action (signInAction), which signs in and sets the
 * session cookies. With JavaScript the browser client signs in and the SIGNED_IN handler takes the
 * person where they were going.
 */
export function PasswordSignInForm({ next }: { next: string }) {
  const [server, action] = useActionState(signInAction, idleFormState);
  const form = useFormFields(signInRules, { email: "", password: "" }, server);
  const [pending, setPending] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState(server.unconfirmed ?? false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = form.validate();
    if (!input) return;
    setPending(true);
    setUnconfirmed(false);
    const supabase = await loadSupabase().catch(() => null);
    if (!supabase) {
      setPending(false);
      return form.setFormError(networkMessage);
    }
    const { error } = await supabase.auth.signInWithPassword(input);
    setPending(false);
    if (error) {
      form.setFormError(authErrorMessage(error));
      setUnconfirmed(error.code === "email_not_confirmed");
    }
  }

  return (
    <form action={action} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="password-sign-in">
      <h2 id="password-sign-in" className="text-lg font-semibold">
        Sign in with your password
      </h2>
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      {unconfirmed ? <ResendConfirmation email={form.values.email} /> : null}
      <input type="hidden" name="next" value={next} />
      {/* "webauthn": the browser may offer a passkey here (PasskeySignIn's autofill request). */}
      <TextField id="email" label="Email" type="email" autoComplete="username webauthn" inputMode="email" {...form.bind("email")} />
      <TextField id="password" label="Password" type="password" autoComplete="current-password" {...form.bind("password")} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
        <Link href="/login/reset" className={`text-sm ${linkClasses}`}>
          Forgot your password?
        </Link>
      </div>
    </form>
  );
}
