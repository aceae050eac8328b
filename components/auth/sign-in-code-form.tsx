"use client";

import { useActionState, useState } from "react";
import { verifySignInCodeAction } from "@/lib/auth/actions";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { idleFormState } from "@/lib/auth/form-state";
import { checkTotpCode, mfaErrorMessage } from "@/lib/auth/mfa";
import { networkMessage } from "@/lib/auth/messages";

/**
 * The second step of signing in: the code from the authenticator app. Without JavaScript the form
 * POSTs to a Server Action (verifySignInCodeAction), which verifies the code and redirects; with it,
 * the browser client verifies and the page loads `next` afresh, so the proxy and the server render
 * see the aal2 session. Either way the code travels only in a request body, never in a URL.
 */
export function SignInCodeForm({ next }: { next: string }) {
  const [server, action] = useActionState(verifySignInCodeAction, idleFormState);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState(server.errors.code);
  const [formError, setFormError] = useState(server.formError);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    const checked = checkTotpCode(code);
    if ("error" in checked) return setCodeError(checked.error);
    setCodeError(undefined);
    setPending(true);
    const supabase = await loadSupabase().catch(() => null);
    const factors = supabase ? await supabase.auth.mfa.listFactors() : null;
    if (!supabase || !factors || factors.error) {
      setPending(false);
      return setFormError(networkMessage);
    }
    const factor = factors.data.totp[0];
    const verified = factor ? await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: checked.code }) : { error: null };
    if (verified.error) {
      setPending(false);
      return setCodeError(mfaErrorMessage(verified.error));
    }
    window.location.assign(next);
  }

  return (
    <form action={action} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-labelledby="sign-in-code">
      <h2 id="sign-in-code" className="text-lg font-semibold">
        Authenticator code
      </h2>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <input type="hidden" name="next" value={next} />
      <TextField
        id="code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        autoFocus
        hint="Open your authenticator app and enter the code it shows for Cuepoint."
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={codeError}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Continue"}
      </Button>
    </form>
  );
}
