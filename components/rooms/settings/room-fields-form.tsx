"use client";

import { useActionState, useRef, useState } from "react";
import { updateRoomFields } from "@/lib/rooms/actions";
import type { RoomFieldsState } from "@/lib/rooms/form-state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/field";
import type { RoomSettingsFields } from "@/lib/rooms/settings-fields";

type Rules = typeof import("@/lib/rooms/settings-fields") & typeof import("@/lib/validation/profile");

/**
 * Name, description and (for the owner) the room's address. Controlled fields that only the person
 * changes: a save's answer never replaces what they typed. The rules load when the form is first
 * focused; a submit before they arrive is checked by the server action alone, with the same words.
 */
export function RoomFieldsForm({ roomId, initial, canEditSlug }: { roomId: string; initial: RoomSettingsFields; canEditSlug: boolean }) {
  const [state, action, pending] = useActionState(updateRoomFields.bind(null, roomId), {
    status: "idle",
    values: initial,
    errors: {},
  } as RoomFieldsState);
  const [values, setValues] = useState<RoomSettingsFields>(() => state.values);
  const [clientErrors, setClientErrors] = useState<RoomFieldsState["errors"] | null>(null);
  const rules = useRef<Rules | null>(null);
  const errors = clientErrors ?? state.errors;
  const bind = (name: keyof RoomSettingsFields) => ({
    value: values[name] ?? "",
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  function loadRules() {
    if (!rules.current) {
      void Promise.all([import("@/lib/rooms/settings-fields"), import("@/lib/validation/profile")]).then(
        ([details, profile]) => (rules.current = { ...details, ...profile }),
        () => {}, // offline: the server action still validates
      );
    }
  }

  return (
    <form
      action={action}
      noValidate
      aria-labelledby="room-details-heading"
      className="flex flex-col gap-4"
      onFocus={loadRules}
      onSubmit={(event) => {
        const loaded = rules.current;
        if (!loaded) return setClientErrors(null);
        const parsed = loaded.roomSettingsSchema.safeParse(canEditSlug ? values : { name: values.name, description: values.description });
        if (!parsed.success) {
          event.preventDefault();
          setClientErrors(loaded.fieldErrors(parsed.error));
        } else setClientErrors(null);
      }}
    >
      <h2 id="room-details-heading" className="text-lg font-semibold">
        Room
      </h2>
      {state.status === "saved" && !clientErrors ? <Alert tone="success">Room saved.</Alert> : null}
      {state.message ? <Alert tone="error">{state.message}</Alert> : null}
      <TextField id="name" label="Name" {...bind("name")} error={errors.name} hint="Up to 80 characters." />
      <TextAreaField
        id="description"
        label="Description"
        {...bind("description")}
        error={errors.description}
        hint="Up to 500 characters."
      />
      {canEditSlug ? (
        <TextField
          id="slug"
          label="Address"
          {...bind("slug")}
          autoCapitalize="none"
          spellCheck={false}
          error={errors.slug}
          hint="3–48 lowercase letters, digits or -. The room's page is /r/address; the old address stops working."
        />
      ) : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save room"}
        </Button>
      </div>
    </form>
  );
}
