"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { InjectedWalletChoice } from "@/components/auth/wallet-connect";

// The Wallets section's interactive parts. They stay small: thirdweb and the linking code load
// (components/wallets/link-flow.ts) only when the person clicks "Link a wallet".

const cancelled = /reject|denied|cancel/i;

export function LinkWalletButton({ clientId }: { clientId: string }) {
  const router = useRouter();
  const [choices, setChoices] = useState<InjectedWalletChoice[] | null>(null);
  const [status, setStatus] = useState<"idle" | "looking" | "signing">("idle");
  const [error, setError] = useState<string | null>(null);
  const [linked, setLinked] = useState<string | null>(null);

  async function link(choice: InjectedWalletChoice) {
    setStatus("signing");
    try {
      const { linkInjectedWallet } = await import("./link-flow");
      const outcome = await linkInjectedWallet(clientId, choice);
      if (!outcome.ok) return setError(outcome.error);
      setChoices(null);
      setLinked(
        outcome.alreadyLinked ? "That wallet was already linked to your account." : `Linked ${outcome.wallet.ens_name ?? "your wallet"}.`,
      );
      router.refresh();
    } catch (failure) {
      const message = (failure as Error).message ?? "";
      setError(
        cancelled.test(message) ? "You cancelled in your wallet. Try again when you're ready." : `Your wallet couldn't sign: ${message}`,
      );
    } finally {
      setStatus("idle");
    }
  }

  async function start() {
    setError(null);
    setLinked(null);
    setStatus("looking");
    try {
      const { discoverInjectedWallets } = await import("./link-flow");
      const found = await discoverInjectedWallets();
      if (found.length === 0) setError("No wallet found in this browser. Install one such as MetaMask or Rabby, then reload this page.");
      if (found.length === 1) return await link(found[0]);
      setChoices(found.length > 1 ? found : null);
    } catch {
      setError("We couldn't load the wallet tools — check your connection and try again.");
    } finally {
      setStatus("idle");
    }
  }

  return (
    <div className="flex flex-col gap-3">
      {error ? <Alert tone="error">{error}</Alert> : null}
      {linked ? <Alert tone="success">{linked}</Alert> : null}
      {choices ? (
        <div className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <Button key={choice.id} variant="secondary" disabled={status !== "idle"} onClick={() => link(choice)}>
              Link {choice.name}
            </Button>
          ))}
        </div>
      ) : (
        <div>
          <Button variant="secondary" disabled={status !== "idle"} onClick={start}>
            {status === "looking" ? "Looking for your wallet…" : status === "signing" ? "Check your wallet…" : "Link a wallet"}
          </Button>
        </div>
      )}
    </div>
  );
}

/** Unlink, after an inline confirmation. The owner deletes the row; RLS allows exactly that. */
export function UnlinkWalletButton({ address, label }: { address: string; label: string }) {
  const router = useRouter();
  const [step, setStep] = useState<"idle" | "confirm" | "pending">("idle");
  const [error, setError] = useState<string | null>(null);

  async function unlink() {
    setStep("pending");
    setError(null);
    const supabase = await loadSupabaseData().catch(() => null);
    const result = supabase ? await supabase.from("wallets").delete().eq("address", address).select("address") : null;
    if (!result || result.error || !result.data?.length) {
      setError("We couldn't unlink the wallet — check your connection and try again.");
      setStep("confirm");
      return;
    }
    router.refresh();
  }

  if (step === "idle") {
    return (
      <Button variant="ghost" aria-label={`Unlink ${label}`} onClick={() => setStep("confirm")}>
        Unlink
      </Button>
    );
  }
  return (
    <div role="group" aria-label={`Unlink ${label}?`} className="flex flex-wrap items-center gap-2">
      <span className="text-sm">Unlink {label}?</span>
      <Button variant="danger" disabled={step === "pending"} onClick={unlink}>
        {step === "pending" ? "Unlinking…" : "Yes, unlink"}
      </Button>
      <Button variant="ghost" disabled={step === "pending"} onClick={() => setStep("idle")}>
        Keep it
      </Button>
      {error ? (
        <p role="alert" className="w-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Names stored over a day ago are looked up again once, in the background. */
export function RefreshStaleNames() {
  const router = useRouter();
  useEffect(() => {
    let active = true;
    import("./link-wallet-call")
      .then(({ refreshStaleNames }) => refreshStaleNames())
      .then((changed) => active && changed && router.refresh())
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [router]);
  return null;
}
