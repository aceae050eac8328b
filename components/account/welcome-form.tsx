"use client";

import Link from "next/link";
import { type ReactNode, useActionState, useEffect, useState } from "react";
import { saveWelcomeNames } from "@/lib/account/actions";
import type { WelcomeFormState } from "@/lib/account/form-state";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { profileMessages } from "@/lib/validation/profile";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

type Names = WelcomeFormState["values"];
/** What the live check knows of the username being typed. */
type Availability = { username: string; state: "checking" | "available" | "taken" | "unknown" };

const usernameShape = /^[a-z0-9_]{3,24}$/;
const checkDelayMs = 300;

/**
 * The first visit's names: the username and display name sign-up made from the email, prefilled, the
 * username checked against everyone's as it is typed (the server checks again when it saves). Once
 * saved, `children` (what comes next: suggested rooms) shows in its place.
 */
export function WelcomeForm({
  selfId,
  initial,
  origin,
  next,
  children,
}: {
  selfId: string;
  initial: Names;
  origin: string;
  /** Where the person was going; "Skip for now" goes there. */
  next: string;
  children: ReactNode;
}) {
  const [state, action, pending] = useActionState(saveWelcomeNames, { status: "idle", values: initial, errors: {} });
  const [values, setValues] = useState<Names>(() => state.values);
  const [availability, setAvailability] = useState<Availability | null>(null);
  const username = values.username.trim();

  useEffect(() => {
    if (!usernameShape.test(username) || username === initial.username) return;
    let current = true;
    const timer = setTimeout(async () => {
      setAvailability({ username, state: "checking" });
      try {
        const data = await loadSupabaseData();
        const { data: rows, error } = await data.from("profiles").select("id").eq("username", username).neq("id", selfId).limit(1);
        if (current) setAvailability({ username, state: error ? "unknown" : rows.length ? "taken" : "available" });
      } catch {
        if (current) setAvailability({ username, state: "unknown" });
      }
    }, checkDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [username, initial.username, selfId]);

  if (state.status === "saved") return <>{children}</>;

  const live = availability?.username === username ? availability.state : null;
  const usernameError = state.errors.username ?? (live === "taken" ? profileMessages.usernameTaken : undefined);
  const usernameHint =
    live === "available"
      ? `${username} is free. Your page will be ${origin}/u/${username}`
      : `Your page will be ${origin}/u/${username || "…"}`;

  return (
    <form action={action} noValidate className="flex flex-col gap-4">
      {state.message ? <Alert tone="error">{state.message}</Alert> : null}
      <TextField
        id="displayName"
        label="Your name"
        value={values.displayName}
        onChange={(event) => setValues((current) => ({ ...current, displayName: event.target.value }))}
        autoComplete="name"
        error={state.errors.displayName}
        hint="What people see next to your comments. You can use any name."
      />
      <TextField
        id="username"
        label="Username"
        value={values.username}
        onChange={(event) => setValues((current) => ({ ...current, username: event.target.value.toLowerCase() }))}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={usernameError}
        hint={`3–24 lowercase letters, digits or _. ${usernameHint}`}
      />
      <p className="sr-only" aria-live="polite">
        {live === "available" ? `${username} is free` : ""}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save and continue"}
        </Button>
        <Link href={next} className="text-sm text-muted underline-offset-4 hover:underline">
          Skip for now
        </Link>
      </div>
    </form>
  );
}
