"use client";

import { useActionState, useRef, useState } from "react";
import { updateProfile } from "@/lib/account/actions";
import type { ProfileFormState } from "@/lib/account/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/field";

type ProfileValidation = typeof import("@/lib/validation/profile");

/**
 * The profile form: validated in the browser with the same zod schema the server action uses, so
 * most mistakes show without a round trip; the server's answer (e.g. "That username is taken") shows
 * next to its field. The fields are controlled and only the person changes them: a save's answer
 * never replaces what they typed, even edits made while it was in flight (and React's reset of a
 * form after its action leaves controlled fields alone). The schema (and zod with it)
 * loads when the person first focuses the form, keeping it out of the page's first load; a submit
 * before it arrives is checked by the server action alone, with the same messages.
 */
export function ProfileForm({
  initial,
  origin,
}: {
  initial: ProfileFormState["values"];
  /** The site's host, for the profile's address. */ origin: string;
}) {
  const [state, action, pending] = useActionState(updateProfile, { status: "idle", values: initial, errors: {} });
  // Starts from the action's state: without JavaScript, a posted form renders again with what was typed.
  const [values, setValues] = useState<ProfileFormState["values"]>(() => state.values);
  const [clientErrors, setClientErrors] = useState<ProfileFormState["errors"] | null>(null);
  const validation = useRef<ProfileValidation | null>(null);
  const errors = clientErrors ?? state.errors;
  const bind = (name: keyof ProfileFormState["values"]) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  function loadValidation() {
    if (!validation.current) {
      void import("@/lib/validation/profile").then(
        (module) => (validation.current = module),
        () => {}, // offline: the server action still validates
      );
    }
  }

  return (
    <form
      action={action}
      noValidate
      className="flex flex-col gap-4"
      onFocus={loadValidation}
      onSubmit={(event) => {
        const rules = validation.current;
        if (!rules) return setClientErrors(null);
        const data = new FormData(event.currentTarget);
        const parsed = rules.profileSchema.safeParse({
          username: data.get("username"),
          displayName: data.get("displayName"),
          bio: data.get("bio"),
        });
        if (!parsed.success) {
          event.preventDefault();
          setClientErrors(rules.fieldErrors(parsed.error));
        } else setClientErrors(null);
      }}
    >
      {state.status === "saved" && !clientErrors ? <Alert tone="success">Profile saved.</Alert> : null}
      {state.message ? <Alert tone="error">{state.message}</Alert> : null}
      <TextField
        id="username"
        label="Username"
        {...bind("username")}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username}
        hint={`3–24 lowercase letters, digits or _. Your page is ${origin}/u/${values.username.trim() || "…"}`}
      />
      <TextField id="displayName" label="Display name" {...bind("displayName")} autoComplete="name" error={errors.displayName} />
      <TextAreaField id="bio" label="Bio" {...bind("bio")} error={errors.bio} hint="Up to 280 characters." />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save profile"}
        </Button>
      </div>
    </form>
  );
}
