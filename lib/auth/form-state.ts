// What a password form's Server Action answers (app/auth/actions.ts), shared with the form that
// renders it. Passwords are never sent back: a page rendered from this state never holds one.

export interface AuthFormState {
  status: "idle" | "error" | "sent" | "done";
  /** What was typed, except passwords. */
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  formError?: string;
  /** Sign-in refused because the email is not confirmed yet. */
  unconfirmed?: boolean;
}

export const idleFormState: AuthFormState = { status: "idle", values: {}, errors: {} };

export function formValue(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
