"use client";

import { useState } from "react";
import type { FormRules } from "@/lib/validation/auth";

/**
 * Controlled fields checked with the form's rules on submit. What the person typed stays in the
 * fields whatever happens; errors are per field, plus one for the whole form.
 */
export function useFormFields<T extends Record<string, string>>(rules: FormRules<T>, initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

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
