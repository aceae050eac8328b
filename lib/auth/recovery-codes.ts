// Two-factor recovery codes: how they are made, written, read back and hashed.
// Each code is 16 characters of RFC 4648 base32 (A–Z, 2–7) from the platform's cryptographic random
// source: 80 bits, shown as four groups of four ("K7QM-3XDF-P2AH-W4ZC"). People may type them with
// spaces or dashes, in either case, and mistake the digits 0, 1 and 8 (which base32 never uses) for
// O, I and B: all of that is read as the same code. The database keeps only SHA-256 of
// "<user id>:<code>" (supabase/migrations/20261128000100_recovery_codes.sql says why that is enough).
import { createHash } from "node:crypto";

export const recoveryCodeCount = 10;
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const codeLength = 16;

/** One new code, as it is shown: uppercase, four groups of four joined by dashes. */
export function newRecoveryCode(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  const bytes = random(new Uint8Array(codeLength));
  // 256 is a multiple of 32, so each byte's low five bits are uniform.
  const plain = Array.from(bytes, (byte) => alphabet[byte & 31]).join("");
  return formatRecoveryCode(plain);
}

/** Ten different new codes. */
export function newRecoveryCodes(random?: (bytes: Uint8Array) => Uint8Array): string[] {
  const codes = new Set<string>();
  while (codes.size < recoveryCodeCount) codes.add(newRecoveryCode(random));
  return [...codes];
}

/** A normalised code as people read it. */
export function formatRecoveryCode(normalised: string): string {
  return (normalised.match(/.{1,4}/g) ?? []).join("-");
}

/** What a person typed, as the code it means (uppercase, no separators), or why it cannot be one. */
export function normaliseRecoveryCode(typed: string): { code: string } | { error: string } {
  const code = typed
    .replace(/[\s\-‐‑‒–—_.]+/g, "")
    .toUpperCase()
    .replace(/0/g, "O")
    .replace(/1/g, "I")
    .replace(/8/g, "B");
  if (!code) return { error: recoveryMessages.empty };
  return new RegExp(`^[${alphabet}]{${codeLength}}$`).test(code) ? { code } : { error: recoveryMessages.format };
}

/** What the database stores and compares: SHA-256 of "<user id>:<normalised code>", in hex. */
export function hashRecoveryCode(userId: string, normalised: string): string {
  return createHash("sha256").update(`${userId.toLowerCase()}:${normalised}`).digest("hex");
}

export const recoveryMessages = {
  empty: "Enter one of your recovery codes",
  format: "A recovery code has 16 letters and digits, like K7QM-3XDF-P2AH-W4ZC",
  wrong: "That recovery code isn't right, or it has been used. Check it and try another of your codes.",
  failed: "We couldn't check your recovery code. Try again in a moment.",
  notFinished: "Your code was right, but we couldn't turn two-factor off. Try another of your recovery codes in a moment.",
  notMade: "Two-factor is on, but we couldn't make your recovery codes. Make them below with a code from your app.",
} as const;
