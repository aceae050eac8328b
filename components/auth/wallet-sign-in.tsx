"use client";

import { useState } from "react";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { missingCredentialsMessage } from "@/lib/chain/credentials";
import { ChainSetupNotice } from "@/components/wallets/chain-setup-notice";
import { authErrorMessage } from "@/lib/auth/messages";
import type { InjectedWalletChoice } from "./wallet-connect";

const statement = "Sign in to Cuepoint with this wallet.";

/** Sign in with Ethereum (EIP-4361). thirdweb loads only when the person asks for it. */
export function WalletSignIn({ clientId, unavailable }: { clientId: string | null; unavailable: string | null }) {
  const [wallets, setWallets] = useState<InjectedWalletChoice[] | null>(null);
  const [status, setStatus] = useState<"idle" | "looking" | "signing">("idle");
  const [error, setError] = useState<string | null>(null);

  async function find() {
    setError(null);
    setStatus("looking");
    const { discoverInjectedWallets } = await import("./wallet-connect");
    const found = await discoverInjectedWallets();
    setWallets(found);
    setStatus("idle");
    if (found.length === 1) await signIn(found[0]);
  }

  async function signIn(choice: InjectedWalletChoice) {
    if (!clientId) return;
    setError(null);
    setStatus("signing");
    try {
      const { connectInjectedWallet } = await import("./wallet-connect");
      const wallet = await connectInjectedWallet(clientId, choice);
      const supabase = await loadSupabase();
      const { error: failure } = await supabase.auth.signInWithWeb3({ chain: "ethereum", wallet, statement });
      if (failure) setError(authErrorMessage(failure));
    } catch (failure) {
      const message = (failure as Error).message ?? "";
      setError(
        /reject|denied|cancel/i.test(message)
          ? "You cancelled in your wallet. Try again when you're ready."
          : `Your wallet couldn't sign in: ${message}`,
      );
    } finally {
      setStatus("idle");
    }
  }

  return (
    <section className="flex flex-col gap-4" aria-labelledby="wallet-sign-in">
      <h2 id="wallet-sign-in" className="text-lg font-semibold">
        Sign in with Ethereum
      </h2>
      {!clientId ? (
        <ChainSetupNotice
          headline="Wallet sign-in isn't set up on this site"
          detail="Sign in with your email instead; it works as usual."
          setupMessage={unavailable ?? missingCredentialsMessage}
        />
      ) : (
        <>
          {error ? <Alert tone="error">{error}</Alert> : null}
          {wallets && wallets.length === 0 ? (
            <Alert tone="info">No wallet found in this browser. Install one such as MetaMask or Rabby, then reload this page.</Alert>
          ) : null}
          {wallets && wallets.length > 1 ? (
            <div className="flex flex-wrap gap-2">
              {wallets.map((choice) => (
                <Button key={choice.id} variant="secondary" disabled={status !== "idle"} onClick={() => signIn(choice)}>
                  Sign in with {choice.name}
                </Button>
              ))}
            </div>
          ) : (
            <Button variant="secondary" disabled={status !== "idle"} onClick={find}>
              {status === "looking"
                ? "Looking for your wallet…"
                : status === "signing"
                  ? "Check your wallet…"
                  : "Connect wallet and sign in"}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
