"use client";

import { useState } from "react";
import type { z } from "zod";

/**
 * Controlled fields validated with a zod schema on submit. What the person typed stays in the
 * fields whatever happens; errors are per field, plus one for the whole form.
 */
export function useFormFields<S extends z.ZodType<Record<string, unknown>>>(schema: S, initial: Record<keyof z.input<S>, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof z.input<S>, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  function bind(name: keyof z.input<S>) {
    return {
      value: values[name],
      onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
      error: errors[name],
    };
  }

  /** The parsed values, or null after showing each field's message. */
  function validate(): z.output<S> | null {
    setFormError(null);
    const parsed = schema.safeParse(values);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const next: Partial<Record<keyof z.input<S>, string>> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof z.input<S>;
      if (key !== undefined && !next[key]) next[key] = issue.message;
    }
    setErrors(next);
    return null;
  }

  return { values, bind, validate, errors, formError, setFormError, setErrors };
}
