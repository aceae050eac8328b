import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { hash, verify } from "@node-rs/bcrypt";

export { randomUUID };

/** GoTrue's token hash for email links: hex SHA-224 of the address followed by the OTP. */
export function tokenHash(emailOrPhone: string, otp: string): string {
  return createHash("sha224")
    .update(emailOrPhone + otp)
    .digest("hex");
}

export function generateOtp(length: number): string {
  let otp = "";
  for (let i = 0; i < length; i++) otp += String(randomInt(10));
  return otp;
}

const refreshAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Refresh tokens look like GoTrue's: 12 random lowercase letters and digits. */
export function generateRefreshToken(): string {
  const bytes = randomBytes(12);
  return [...bytes].map((b) => refreshAlphabet[b % refreshAlphabet.length]).join("");
}

export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** GoTrue's bcrypt cost (Go's bcrypt.DefaultCost). */
const bcryptCost = 10;

export const hashPassword = (password: string) => hash(password, { cost: bcryptCost, version: "2a" });

export async function passwordMatches(password: string, encrypted: string | null): Promise<boolean> {
  if (!encrypted || !password) return false;
  try {
    return await verify(password, encrypted);
  } catch {
    return false;
  }
}
