"use client";

import { useActionState } from "react";
import { verifySignInCodeAction } from "@/app/login/mfa/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";

/**
 * The second step of signing in: the code from the authenticator app. A plain POST to a Server
 * Action, so it works the same before JavaScript runs (or without it) and the code never lands in
 * a URL. A wrong code is answered next to the field; the field starts empty for the next code.
 */
export function SignInCodeForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(verifySignInCodeAction, idleFormState);
  return (
    <form action={action} noValidate className="flex flex-col gap-4" aria-labelledby="sign-in-code">
      <h2 id="sign-in-code" className="text-lg font-semibold">
        Authenticator code
      </h2>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="next" value={next} />
      <TextField
        id="code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        autoFocus
        hint="Open your authenticator app and enter the code it shows for Cuepoint."
        error={state.errors.code}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Continue"}
      </Button>
    </form>
  );
}
