/**
 * Claims of the caller's JWT. Only for functions with `verify_jwt` on (the default): Supabase has
 * checked the signature and expiry before the request reaches the function, so decoding is enough.
 */
export interface CallerClaims {
  role: string;
  sub?: string;
  email?: string;
  /** Authenticator assurance level: "aal2" once the session passed its second factor. */
  aal?: string;
}

export function callerClaims(req: Request): CallerClaims {
  const token = /^Bearer (.+)$/.exec(req.headers.get("Authorization") ?? "")?.[1] ?? "";
  const payload = token.split(".")[1] ?? "";
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    return { role: String(claims.role ?? "anon"), sub: claims.sub, email: claims.email, aal: claims.aal };
  } catch {
    return { role: "anon" };
  }
}
