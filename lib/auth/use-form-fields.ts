"use client";

import { useState } from "react";
import type { AuthFormState } from "@/lib/auth/form-state";
import type { FormRules } from "@/lib/validation/auth";

/**
 * Controlled fields checked with the form's rules on submit. What the person typed stays in the
 * fields whatever happens; errors are per field, plus one for the whole form. `server` is the
 * Server Action's answer when the form was posted without JavaScript: its values (never a password)
 * and messages are where the fields start.
 */
export function useFormFields<T extends Record<string, string>>(rules: FormRules<T>, initial: T, server?: AuthFormState) {
  const [values, setValues] = useState<T>(() => ({ ...initial, ...pick(initial, server?.values) }));
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>(() => pick(initial, server?.errors));
  const [formError, setFormError] = useState<string | null>(server?.formError ?? null);

  function bind(name: keyof T) {
    return {
      value: values[name],
      onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
      error: errors[name],
    };
  }

  /** The checked values, or null after showing each field's message. */
  function validate(): T | null {
    setFormError(null);
    const checked = rules(values);
    setErrors(checked.ok ? {} : checked.errors);
    return checked.ok ? checked.data : null;
  }

  return { values, bind, validate, errors, formError, setFormError, setErrors };
}

/** The entries of `from` that are fields of this form and have a value. */
function pick<T extends Record<string, string>>(fields: T, from: Record<string, string | undefined> = {}): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([name, value]) => name in fields && typeof value === "string")) as Partial<T>;
}
