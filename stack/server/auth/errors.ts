import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../gateway.ts";

/**
 * GoTrue's HTTPError. Serialised as `{code: <status>, error_code, msg}`, or as
 * `{code: <error_code>, message}` when the request names API version 2024-01-01 or later
 * (auth-js sends `X-Supabase-Api-Version: 2024-01-01`).
 */
export class AuthError extends Error {
  readonly status: number;
  readonly code: string;
  /** Extra members of the body (e.g. `weak_password: {reasons}`). */
  readonly extra: Record<string, unknown>;
  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

/** GoTrue's OAuthError: `{error, error_description}`, always 400 (used by some grants, e.g. web3). */
export class OAuthError extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
export const tooManyRequests = (code: string, message: string) => new AuthError(429, code, message);

export function weakPassword(message: string, reasons: string[]): AuthError {
  return new AuthError(422, "weak_password", message, { weak_password: { reasons } });
}

const apiVersion20240101 = Date.UTC(2024, 0, 1);

/** The API version the request asks for: "2024-01-01" when it names that date or a later one. */
function requestedApiVersion(req: IncomingMessage): string | undefined {
  const header = req.headers["x-supabase-api-version"];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && time >= apiVersion20240101 ? "2024-01-01" : undefined;
}

export function sendAuthError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const version = requestedApiVersion(req);
  const headers: Record<string, string> = version ? { "X-Supabase-Api-Version": version } : {};
  if (error instanceof OAuthError) {
    const body: Record<string, string> = { error: error.error };
    if (error.message) body.error_description = error.message;
    return sendJson(res, 400, body, headers);
  }
  if (error instanceof AuthError) {
    const body = version
      ? { code: error.code, message: error.message, ...error.extra }
      : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
    return sendJson(res, error.status, body, headers);
  }
  const pgError = error as { code?: string; constraint?: string };
  if (
    pgError?.code === "23505" &&
    (pgError.constraint === "users_email_partial_key" || pgError.constraint === "identities_provider_id_provider_unique")
  ) {
    // Two requests raced to create the same account: the loser hears what GoTrue says to a duplicate.
    return sendAuthError(req, res, new AuthError(422, "email_exists", "A user with this email address has already been registered"));
  }
  console.error("[auth] unexpected failure:", error);
  const message = "Unexpected failure, please check server logs for more information";
  sendJson(
    res,
    500,
    version ? { code: "unexpected_failure", message } : { code: 500, error_code: "unexpected_failure", msg: message },
    headers,
  );
}
