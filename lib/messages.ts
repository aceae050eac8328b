/**
 * Words shared by every feature's writes, so a person reads the same sentence for the same thing
 * wherever it happens. A feature's own refusals live beside its rules (lib/<feature>/errors.ts).
 */
const sessionEndedSignIn = "Your session has ended — sign in again";

export const messages = {
  /** The caller's session is gone (signed out elsewhere, expired, or a second factor is due). */
  sessionEnded: `${sessionEndedSignIn}.`,
  /** The request never reached the server. */
  unreachable: "We couldn't reach the server — try again",
  /** The server answered with something not meant for people. */
  failed: "That didn't work — try again in a moment.",
} as const;

/** "Your session has ended — sign in again, then join." for a write that says what to do next. */
export function sessionEndedThen(nextStep: string): string {
  return `${sessionEndedSignIn}, then ${nextStep}.`;
}

/** "Your session has ended — sign in again to save your profile." for a form that names its purpose. */
export function sessionEndedTo(purpose: string): string {
  return `${sessionEndedSignIn} to ${purpose}.`;
}
