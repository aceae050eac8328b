import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import { type GatewayContext, sendJson } from "../gateway.ts";
import { verifyJwt, type Claims } from "../jwt.ts";
import { goJwtReason } from "./jwt-errors.ts";
import { AuthError, badRequest, forbidden, tooManyRequests, unprocessable, weakPassword } from "./errors.ts";
import type { Mailer } from "./mail.ts";
import type { WindowLimiter } from "./rate-limit.ts";
import { rateLimitKey } from "./request.ts";
import { referrer } from "./redirect.ts";
import type { AuthSettings } from "./settings.ts";
import { type UserRow, findUserWithSession } from "./users.ts";

export interface AuthService {
  pool: pg.Pool;
  settings: AuthSettings;
  mailer: Mailer;
  /** Per-IP limiters of [auth.rate_limit] (5-minute windows, as GoTrue counts them). */
  limits: {
    signInSignUps: WindowLimiter;
    tokenRefresh: WindowLimiter;
    tokenVerifications: WindowLimiter;
    web3: WindowLimiter;
    anonymousUsers: WindowLimiter;
  };
}

/** One request to the Auth service. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  gw: GatewayContext;
  url: URL;
}

export type Handler = (svc: AuthService, call: Call) => Promise<void>;

/** Handlers by exact path, then by method. */
export type Routes = Record<string, Partial<Record<string, Handler>>>;

/** Serves every path below a prefix; `rest` is what follows it ("" or "/…"). */
export type PrefixHandler = (svc: AuthService, call: Call, rest: string) => Promise<void>;

/** One of GoTrue's route groups (routes/*.ts): its exact paths and the prefixes it serves whole. */
export interface RouteGroup {
  paths?: Routes;
  below?: Record<string, PrefixHandler>;
}

export const methodOf = (call: Call) => call.req.method ?? "GET";

export const ok = (call: Call, body: unknown, status = 200) => sendJson(call.res, status, body);

export function redirect(call: Call, location: string): void {
  call.res.writeHead(303, { Location: location, "Content-Length": 0 });
  call.res.end();
}

export function redirectTo(svc: AuthService, call: Call): string {
  return referrer(call.req, call.url, svc.settings);
}

/**
 * GoTrue's per-IP request limits, keyed by the first value of the limiter's rate-limit header.
 * Without one (as `supabase start` runs GoTrue), or when the request lacks it, nothing is limited.
 */
export function limit(call: Call, limiter: WindowLimiter): void {
  const key = rateLimitKey(call.req, limiter.keyHeader);
  if (key && !limiter.take(key)) throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
}

const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's validateEmail: required, at most 255 characters, a plausible format; lower-cased. */
export function validateEmail(email: string): string {
  if (!email) throw badRequest("validation_failed", "An email address is required");
  if (email.length > 255) throw badRequest("validation_failed", "An email address is too long");
  if (!emailPattern.test(email)) throw badRequest("validation_failed", "Unable to validate email address: invalid format");
  return email.toLowerCase();
}

const requirementSets: Record<string, { label: string; sets: string[] }> = {
  letters_digits: {
    label: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789",
    sets: ["abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"],
  },
  lower_upper_letters_digits: {
    label: "abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789",
    sets: ["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"],
  },
  lower_upper_letters_digits_symbols: {
    label: "abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789, !@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~",
    sets: ["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", "!@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~"],
  },
};

/** GoTrue's checkPasswordStrength: minimum length, required character sets, bcrypt's 72-byte cap. */
export function checkPasswordStrength(settings: AuthSettings, password: string): void {
  if (Buffer.byteLength(password) > 72) throw unprocessable("validation_failed", "Password cannot be longer than 72 characters");
  const reasons: string[] = [];
  const messages: string[] = [];
  if ([...password].length < settings.minimumPasswordLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${settings.minimumPasswordLength} characters.`);
  }
  const required = requirementSets[settings.passwordRequirements];
  if (required && !required.sets.every((set) => [...password].some((c) => set.includes(c)))) {
    reasons.push("characters");
    messages.push(`Password should contain at least one character of each: ${required.label}.`);
  }
  if (reasons.length) throw weakPassword(messages.join(" "), reasons);
}

export interface Caller {
  claims: Claims;
  user: UserRow;
  sessionId?: string;
}

/** GoTrue's requireAuthentication: a valid access token whose user (and session) still exist. */
export async function requireUser(svc: AuthService, call: Call): Promise<Caller> {
  const token = call.gw.bearer;
  const sentBearer = /^Bearer\s+\S/i.test(String(call.req.headers.authorization ?? ""));
  if (!token || !sentBearer) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  const verified = verifyJwt(token);
  if (!verified.ok) throw forbidden("bad_jwt", `invalid JWT: unable to parse or verify signature, ${goJwtReason(token, verified.reason)}`);
  const claims = verified.claims;
  if (typeof claims.sub !== "string" || !claims.sub) throw forbidden("bad_jwt", "invalid claim: missing sub claim");
  const sessionId = typeof claims.session_id === "string" && claims.session_id ? claims.session_id : undefined;
  const { user, sessionFound } = await findUserWithSession(svc.pool, claims.sub, sessionId);
  if (!user) throw forbidden("user_not_found", "User from sub claim in JWT does not exist");
  if (sessionId && !sessionFound) throw forbidden("session_not_found", "Session from session_id claim in JWT does not exist");
  return { claims, user, sessionId };
}

/** GoTrue's requireAdmin: the bearer's role must be service_role (or supabase_admin). */
export function requireAdmin(call: Call): void {
  const token = call.gw.bearer;
  if (!token) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  const verified = verifyJwt(token);
  if (!verified.ok) throw forbidden("bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed");
  const role = verified.claims.role;
  if (role !== "service_role" && role !== "supabase_admin") throw forbidden("not_admin", "User not allowed");
}
