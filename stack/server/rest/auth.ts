import { verifyJwt, type Claims } from "../jwt.ts";
import { errors } from "./errors.ts";

/** The caller as PostgREST sees it: the JWT's role (the anon role without a token) and its claims. */
export interface Caller {
  role: string;
  claims: Claims;
  /** PostgREST's notion of "authenticated": any role other than the anonymous one. */
  authenticated: boolean;
}

const anonRole = "anon";

/** Verified tokens (signature checked once); expiry is still checked on every use. */
const verified = new Map<string, Caller & { exp?: number }>();
const maxVerified = 5000;

/** `bearer` is what the gateway passes: the caller's token, else the apikey's JWT. */
export function authenticate(bearer: string | undefined): Caller {
  const known = bearer ? verified.get(bearer) : undefined;
  if (known && (known.exp === undefined || known.exp > Math.floor(Date.now() / 1000))) return known;
  const caller = verifyCaller(bearer);
  if (bearer) {
    if (verified.size >= maxVerified) verified.clear();
    verified.set(bearer, { ...caller, exp: typeof caller.claims.exp === "number" ? caller.claims.exp : undefined });
  }
  return caller;
}

function verifyCaller(bearer: string | undefined): Caller {
  if (bearer === undefined || bearer === "") {
    return { role: anonRole, claims: { role: anonRole }, authenticated: false };
  }
  const parts = bearer.split(".").length;
  if (parts !== 3) throw errors.jwtDecode(`Expected 3 parts in JWT; got ${parts}`);
  const result = verifyJwt(bearer);
  if (!result.ok) {
    if (result.reason === "expired") throw errors.jwtClaims("JWT expired");
    if (result.reason === "malformed") throw errors.jwtDecode("JWT couldn't be decoded");
    if (result.reason === "unsupported_alg") throw errors.jwtDecode("Wrong or unsupported encoding algorithm", null);
    // a bad signature, an unknown kid, or a kid whose key is of another algorithm
    throw errors.jwtDecode("No suitable key or wrong key type", "None of the keys was able to decode the JWT");
  }
  const claims = result.claims;
  if (claims.exp !== undefined && typeof claims.exp !== "number") throw errors.jwtClaims("The JWT 'exp' claim must be a number");
  const role = typeof claims.role === "string" && claims.role ? claims.role : anonRole;
  return { role, claims, authenticated: role !== anonRole };
}
