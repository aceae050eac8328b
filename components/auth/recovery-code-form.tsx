"use client";

import { useActionState } from "react";
import { redeemRecoveryCodeAction } from "@/lib/auth/actions";
import { idleFormState } from "@/lib/auth/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

/**
 * The way in when the authenticator is lost: one of the account's recovery codes. A Server Action
 * (it needs the server's Auth admin API), so it works the same before JavaScript runs; the code
 * travels only in the POST body. A right code turns two-factor off and opens /account, which says so.
 */
export function RecoveryCodeForm() {
  const [state, action, pending] = useActionState(redeemRecoveryCodeAction, idleFormState);
  return (
    <details open={state.status === "error"} className="group">
      <summary className="min-h-11 cursor-pointer content-center rounded-lg text-sm font-medium text-ink underline-offset-4 hover:underline">
        Use a recovery code instead
      </summary>
      <form action={action} noValidate className="mt-4 flex flex-col gap-4" aria-label="Sign in with a recovery code">
        <p className="text-sm text-muted">
          Lost your authenticator app? Enter one of the recovery codes you saved when you set it up. It signs you in once and turns
          two-factor off, so you can set it up again on a new device.
        </p>
        {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
        <TextField
          id="recovery-code"
          name="recoveryCode"
          label="Recovery code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          className="font-mono"
          error={state.errors.recoveryCode}
        />
        <Button type="submit" variant="secondary" disabled={pending} className="self-start">
          {pending ? "Checking…" : "Sign in with recovery code"}
        </Button>
      </form>
    </details>
  );
}
