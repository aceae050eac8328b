// What Supabase Auth's forms send and their Server Actions (./actions.ts) answer, shared with the
// forms that render it. Passwords and sign-in codes are never sent back: a page rendered from this
// state never holds one (new recovery codes are the exception: that answer is where they are shown).

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

/** The authenticator being set up: what the page shows until a code confirms it. */
export interface PendingAuthenticator {
  factorId: string;
  qrCode: string;
  secret: string;
  uri: string;
}

/**
 * The account page's two-factor forms: setting up an authenticator app, removing it, and making new
 * recovery codes. `recoveryCodes` are the new codes, in the one answer that shows them.
 */
export interface TwoFactorState {
  status: "idle" | "enrolling" | "error" | "enabled" | "removed" | "regenerated";
  pending?: PendingAuthenticator;
  codeError?: string;
  formError?: string;
  recoveryCodes?: string[];
}
