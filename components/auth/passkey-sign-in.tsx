"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { isSupersededCeremony, passkeyErrorMessage, passkeyMessages } from "@/lib/passkeys/rules";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { networkMessage } from "@/lib/auth/messages";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

type Support = "unknown" | "none" | "modal" | "autofill";

/** Whether this browser has WebAuthn, and whether it can offer passkeys in the email field's autofill. */
async function passkeySupport(): Promise<Support> {
  if (typeof window.PublicKeyCredential !== "function") return "none";
  const autofill = await PublicKeyCredential.isConditionalMediationAvailable?.().catch(() => false);
  return autofill ? "autofill" : "modal";
}

/**
 * "Sign in with a passkey" on /login, and the passkey offered in the email field's autofill where the
 * browser can (the field says `autocomplete="username webauthn"`): a conditional request starts when
 * the page loads and waits for the person to pick a passkey there. Either way the session client
 * signs in and its SIGNED_IN handler takes the person where they were going, by way of the code from
 * their authenticator app if their account has two-factor on (a passkey sign-in is one factor).
 * Shown only once the page runs scripts: without them there is no passkey prompt to open.
 */
export function PasskeySignIn() {
  const [support, setSupport] = useState<Support>("unknown");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  // False once the page is left: a waiting autofill request is not started again.
  const mounted = useRef(true);

  /** The autofill request; again whenever its challenge expired unused (after five minutes). */
  const autofill = useCallback(async () => {
    for (;;) {
      const supabase = await loadSupabase().catch(() => null);
      if (!supabase || !mounted.current) return;
      const { error: failure } = await supabase.auth.signInWithPasskey({ options: { mediation: "conditional" } });
      if (!failure || !mounted.current || isSupersededCeremony(failure)) return;
      if (failure.code === "webauthn_challenge_expired") continue;
      // A dismissed autofill prompt is no failure to announce; anything else is said.
      const message = passkeyErrorMessage(failure, "sign-in");
      if (message !== passkeyMessages.cancelledSignIn) setError(message);
      return;
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void passkeySupport().then((found) => {
      if (!mounted.current) return;
      setSupport(found);
      if (found === "autofill") void autofill();
    });
    return () => {
      mounted.current = false;
    };
  }, [autofill]);

  async function signIn() {
    setError(null);
    if (support === "none") return setError(passkeyMessages.notSupported);
    setPending(true);
    try {
      const supabase = await loadSupabase().catch(() => null);
      if (!supabase) return setError(networkMessage);
      const started = performance.now();
      // Replaces the autofill request, if one is waiting (auth-js aborts it first).
      const { error: failure } = await supabase.auth.signInWithPasskey();
      if (failure) {
        setError(passkeyErrorMessage(failure, "sign-in", performance.now() - started));
        // The email field offers the passkey again.
        if (support === "autofill") void autofill();
      }
    } finally {
      setPending(false);
    }
  }

  if (support === "unknown") return null;
  return (
    <section className="flex flex-col gap-3" aria-labelledby="passkey-sign-in">
      <h2 id="passkey-sign-in" className="text-lg font-semibold">
        Sign in with a passkey
      </h2>
      <p className="text-sm text-muted">Use your fingerprint, face or screen lock — no password needed.</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button variant="secondary" disabled={pending} onClick={signIn} className="self-start">
        {pending ? "Waiting for your device…" : "Sign in with a passkey"}
      </Button>
    </section>
  );
}
