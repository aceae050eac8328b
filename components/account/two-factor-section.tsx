"use client";

import { useActionState, useState } from "react";
import { enrollmentAction, regenerateRecoveryCodesAction, removeAuthenticatorAction } from "@/lib/auth/actions";
import type { TwoFactorState } from "@/lib/auth/form-state";
import type { RecoveryStatus } from "@/lib/auth/queries";
import { RecoveryCodes } from "@/components/account/recovery-codes";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";

const idle: TwoFactorState = { status: "idle" };

/** The QR code as an image: the SVG auth-js hands over, percent-encoded so no character can end the URI early. */
function qrCodeSource(dataUri: string): string {
  const comma = dataUri.indexOf(",");
  return `${dataUri.slice(0, comma + 1)}${encodeURIComponent(dataUri.slice(comma + 1))}`;
}

/** Splits the secret into groups of four, as people copy it into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

type FormProps = { state: TwoFactorState; action: (formData: FormData) => void; pending: boolean };

function SetUpAuthenticator({ state, action, pending }: FormProps) {
  const setup = state.status === "enrolling" ? state.pending : undefined;
  if (!setup) {
    return (
      <form action={action} className="flex flex-col items-start gap-3">
        <p className="text-muted">Protect your account with a code from an authenticator app each time you sign in.</p>
        {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
        <input type="hidden" name="step" value="start" />
        <Button type="submit" disabled={pending}>
          {pending ? "Starting…" : "Set up an authenticator app"}
        </Button>
      </form>
    );
  }
  return (
    <form action={action} noValidate className="flex flex-col gap-4" aria-describedby="authenticator-steps">
      <p id="authenticator-steps" className="text-muted">
        Scan this QR code with your authenticator app (or type the key below into it), then enter the 6-digit code it shows.
      </p>
      <div className="flex flex-wrap items-center gap-6">
        {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URI from Auth; nothing to optimise */}
        <img
          src={qrCodeSource(setup.qrCode)}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="rounded-lg border border-line bg-white p-2"
        />
        <div className="flex min-w-0 flex-col gap-1">
          <span className="text-sm font-medium">Setup key</span>
          <code data-testid="totp-secret" data-secret={setup.secret} className="font-mono text-sm [overflow-wrap:anywhere]">
            {grouped(setup.secret)}
          </code>
        </div>
      </div>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="step" value="confirm" />
      <input type="hidden" name="factorId" value={setup.factorId} />
      <input type="hidden" name="secret" value={setup.secret} />
      <input type="hidden" name="uri" value={setup.uri} />
      <input type="hidden" name="qrCode" value={setup.qrCode} />
      <TextField
        id="enroll-code"
        name="code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        error={state.codeError}
      />
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Checking…" : "Turn on two-factor authentication"}
      </Button>
    </form>
  );
}

function RemoveAuthenticator({ factorId }: { factorId: string }) {
  const [state, action, pending] = useActionState(removeAuthenticatorAction, idle);
  return (
    <form action={action} noValidate className="flex flex-col gap-4" aria-label="Remove authenticator app">
      <h3 className="-mb-3 font-semibold">Authenticator app</h3>
      <p className="text-muted">Signing in asks for a code from your authenticator app. To remove it, enter a code it shows now.</p>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="factorId" value={factorId} />
      <TextField
        id="remove-code"
        name="code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        error={state.codeError}
      />
      <Button type="submit" variant="danger" disabled={pending} className="self-start">
        {pending ? "Removing…" : "Remove authenticator app"}
      </Button>
    </form>
  );
}

/** How many codes are left, and making a new set (with a fresh code). */
function RegenerateRecoveryCodes({ factorId, codesLeft, state, action, pending }: FormProps & { factorId: string; codesLeft: number }) {
  return (
    <form
      action={action}
      noValidate
      className="flex flex-col gap-4"
      aria-labelledby="recovery-codes-title"
      aria-describedby="recovery-codes-left"
    >
      <div className="flex flex-col">
        <h3 id="recovery-codes-title" className="font-semibold">
          Recovery codes
        </h3>
        <p id="recovery-codes-left" className="text-muted">
          {codesLeft === 0
            ? "You have no recovery codes left. Make new ones so you can still sign in if you lose your app."
            : `${codesLeft} of 10 recovery codes left. Making new ones stops the old ones working.`}
        </p>
      </div>
      {state.formError ? <Alert tone="error">{state.formError}</Alert> : null}
      <input type="hidden" name="factorId" value={factorId} />
      <TextField
        id="regenerate-code"
        name="code"
        label="6-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        error={state.codeError}
      />
      <Button type="submit" variant={codesLeft === 0 ? "primary" : "secondary"} disabled={pending} className="self-start">
        {pending ? "Making codes…" : "Make new recovery codes"}
      </Button>
    </form>
  );
}

/** /account's "Two-factor authentication": set up, confirm and remove an authenticator app, and its recovery codes. */
export function TwoFactorSection({ factorId, recovery }: { factorId: string | null; recovery: RecoveryStatus }) {
  // Both forms that answer with new codes live here, so the codes stay on screen when the page
  // re-renders with two-factor on.
  const [enrollment, enroll, enrolling] = useActionState(enrollmentAction, idle);
  const [regeneration, regenerate, regenerating] = useActionState(regenerateRecoveryCodesAction, idle);
  const fresh = regeneration.recoveryCodes ?? enrollment.recoveryCodes;
  const [saved, setSaved] = useState<string[] | undefined>();
  const showCodes = factorId && fresh && fresh !== saved;
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Two-factor authentication</h2>
        <span className={`text-sm font-medium ${factorId ? "text-success" : "text-muted"}`}>{factorId ? "On" : "Off"}</span>
      </div>
      {showCodes ? (
        <RecoveryCodes codes={fresh} onDone={() => setSaved(fresh)} />
      ) : factorId ? (
        <div className="flex flex-col gap-6">
          {enrollment.status === "enabled" && enrollment.formError ? <Alert tone="error">{enrollment.formError}</Alert> : null}
          <RegenerateRecoveryCodes
            factorId={factorId}
            codesLeft={recovery.codesLeft}
            state={regeneration}
            action={regenerate}
            pending={regenerating}
          />
          <hr className="border-line" />
          <RemoveAuthenticator factorId={factorId} />
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          {recovery.recoveredAt ? (
            <Alert tone="info">Two-factor is off — you used a recovery code. Set it up again to protect your account.</Alert>
          ) : null}
          <SetUpAuthenticator state={enrollment} action={enroll} pending={enrolling} />
        </div>
      )}
    </Card>
  );
}
