import { signHs256 } from "../../lib/keys.ts";
import { checkToken } from "./caller.ts";
import { errors } from "./errors.ts";

/** Signed URL tokens are JWTs signed with the project's JWT secret: `{ url, iat, exp }` (+ owner/upsert for uploads). */
export function signUrlToken(payload: Record<string, unknown>, expiresIn: number, now = Math.floor(Date.now() / 1000)): string {
  return signHs256({ ...payload, iat: now, exp: now + expiresIn });
}

/** Verifies a download token for `bucket/name`; storage-api answers InvalidJWT / InvalidSignature. */
export function verifyDownloadToken(token: string | null, url: string): { exp: number; claims: Record<string, unknown> } {
  const check = checkToken(token ?? "");
  if (!check.ok) throw errors.invalidJwt(check.message);
  if (check.claims.url !== url) throw errors.invalidSignature();
  return { exp: Number(check.claims.exp), claims: check.claims };
}

export function verifyUploadToken(token: string | null, url: string): { owner?: string; upsert: boolean } {
  const check = checkToken(token ?? "");
  if (!check.ok) throw errors.invalidJwt(check.message);
  if (check.claims.url !== url) throw errors.invalidSignature();
  const exp = Number(check.claims.exp);
  if (Number.isFinite(exp) && exp * 1000 < Date.now()) throw errors.expiredSignature();
  return { owner: typeof check.claims.owner === "string" ? check.claims.owner : undefined, upsert: check.claims.upsert === true };
}

/** storage-api signs uploads for two hours (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
export const uploadUrlExpiresIn = 2 * 60 * 60;
