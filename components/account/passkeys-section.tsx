"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore, useTransition } from "react";
import { removePasskeyAction, renamePasskeyAction } from "@/lib/passkeys/actions";
import type { PasskeyItem } from "@/lib/passkeys/queries";
import { checkPasskeyName, defaultPasskeyName, passkeyDate, passkeyErrorMessage, passkeyNameMaxLength } from "@/lib/passkeys/rules";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { networkMessage } from "@/lib/auth/messages";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";

const noChanges = () => () => {};

/** Adding a passkey: the person names it (the device's name to start with), then the browser asks for it. */
function AddPasskey({ onAdded }: { onAdded: (name: string) => void }) {
  // The device's name is known only in the browser (empty in the server's render) until the person types.
  const deviceName = useSyncExternalStore(
    noChanges,
    () => defaultPasskeyName(navigator.userAgent),
    () => "",
  );
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? deviceName;
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    const checked = checkPasskeyName(name);
    if ("error" in checked) return setNameError(checked.error);
    setNameError(undefined);
    setError(null);
    setPending(true);
    try {
      const supabase = await loadSupabase().catch(() => null);
      if (!supabase) return setError(networkMessage);
      const started = performance.now();
      const { data, error: failure } = await supabase.auth.registerPasskey();
      if (failure || !data) return setError(passkeyErrorMessage(failure, "add", performance.now() - started));
      if (data.friendly_name !== checked.name) {
        const renamed = await renamePasskeyAction({ passkeyId: data.id, name: checked.name });
        if (!renamed.ok) return setError(renamed.error);
      }
      setName(null);
      onAdded(checked.name);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={add} noValidate className="flex flex-col gap-4" aria-label="Add a passkey">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        id="passkey-name"
        label="Name for this passkey"
        hint="So you can tell your passkeys apart, like “MacBook Touch ID”."
        value={name}
        maxLength={passkeyNameMaxLength + 20}
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
        error={nameError}
      />
      <Button type="submit" variant="secondary" disabled={pending} className="self-start">
        {pending ? "Waiting for your device…" : "Add a passkey"}
      </Button>
    </form>
  );
}

function PasskeyRow({ passkey, onChanged }: { passkey: PasskeyItem; onChanged: (message: string) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const nameId = `passkey-${passkey.id}`;

  function rename(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    startTransition(async () => {
      const result = await renamePasskeyAction({ passkeyId: passkey.id, name });
      if (!result.ok) return setError(result.error);
      setRenaming(false);
      onChanged(`Renamed to “${result.data.name}”.`);
    });
  }

  function remove() {
    setError(null);
    startTransition(async () => {
      const result = await removePasskeyAction({ passkeyId: passkey.id });
      if (!result.ok) return setError(result.error);
      onChanged(`Removed “${passkey.name}”.`);
    });
  }

  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col">
          <span id={nameId} className="font-medium [overflow-wrap:anywhere]">
            {passkey.name}
          </span>
          <span className="text-sm text-muted">
            Added {passkeyDate(passkey.createdAt)} ·{" "}
            {passkey.lastUsedAt ? `last used ${passkeyDate(passkey.lastUsedAt)}` : "not used to sign in yet"}
          </span>
        </div>
        {renaming ? null : (
          <div className="flex gap-2">
            <Button variant="ghost" disabled={pending} onClick={() => setRenaming(true)} aria-label={`Rename ${passkey.name}`}>
              Rename
            </Button>
            <Button variant="danger" disabled={pending} onClick={remove} aria-label={`Remove ${passkey.name}`}>
              {pending ? "Removing…" : "Remove"}
            </Button>
          </div>
        )}
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {renaming ? (
        <form onSubmit={rename} noValidate className="flex flex-col gap-3" aria-label={`Rename ${passkey.name}`}>
          <TextField
            id={`${nameId}-name`}
            label="New name"
            value={name}
            autoComplete="off"
            maxLength={passkeyNameMaxLength + 20}
            onChange={(event) => setName(event.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="secondary" disabled={pending}>
              {pending ? "Saving…" : "Save name"}
            </Button>
            <Button
              variant="ghost"
              disabled={pending}
              onClick={() => {
                setRenaming(false);
                setName(passkey.name);
                setError(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}

/** /account's "Passkeys": add one with the browser's own prompt, see them, rename and remove them. */
export function PasskeysSection({ passkeys, unavailable }: { passkeys: PasskeyItem[]; unavailable: boolean }) {
  const router = useRouter();
  const [done, setDone] = useState<string | null>(null);
  const changed = (message: string) => {
    setDone(message);
    router.refresh();
  };
  return (
    <Card>
      <h2 className="mb-1 text-lg font-semibold">Passkeys</h2>
      <p className="mb-4 text-muted">
        Sign in with your fingerprint, face or screen lock instead of a password. A passkey stays on your device or in your password
        manager; Cuepoint keeps only its public half.
      </p>
      <div className="flex flex-col gap-6">
        {done ? <Alert tone="success">{done}</Alert> : null}
        {unavailable ? (
          <Alert tone="error">We couldn&apos;t load your passkeys — reload the page in a moment.</Alert>
        ) : passkeys.length ? (
          <ul aria-label="Your passkeys" className="flex flex-col divide-y divide-line">
            {passkeys.map((passkey) => (
              <PasskeyRow key={`${passkey.id}:${passkey.name}`} passkey={passkey} onChanged={changed} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">No passkeys yet — add one to sign in on this device without a password.</p>
        )}
        <AddPasskey onAdded={(name) => changed(`Added “${name}”. You can sign in with it now.`)} />
      </div>
    </Card>
  );
}
