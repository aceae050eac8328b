import { AuthError, badRequest } from "./errors.ts";
import { issueAuthCode } from "./pkce.ts";
import { readParams, stringField } from "./request.ts";
import { type AuthService, type Call, limit, ok, redirect, redirectTo } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { withTransaction } from "./users.ts";
import { invalidOtp, parseVerifyType, verifyToken } from "./verify.ts";

const singleConfirmationAccepted = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

function appendParams(base: string, params: Record<string, string>, inFragment: boolean): string {
  const query = new URLSearchParams(params).toString();
  if (inFragment) return `${base.split("#")[0]}#${query}`;
  const [path, fragment] = base.split("#");
  return `${path}${path.includes("?") ? "&" : "?"}${query}${fragment !== undefined ? `#${fragment}` : ""}`;
}

/**
 * GET /verify?token=…&type=…&redirect_to=… — the link in GoTrue's own templates. PKCE tokens
 * redirect with `?code=`; others with the session in the URL fragment. Failures redirect too,
 * with error, error_code and error_description.
 */
export async function verifyGet(svc: AuthService, call: Call): Promise<void> {
  const token = call.url.searchParams.get("token") ?? "";
  const target = redirectTo(svc, call);
  const pkce = token.startsWith("pkce_");
  try {
    limit(call, svc.limits.tokenVerifications);
    const type = parseVerifyType(call.url.searchParams.get("type") ?? "");
    if (!token) throw invalidOtp();
    const location = await withTransaction(svc.pool, async (db) => {
      const verified = await verifyToken(db, svc.settings, type, { tokenHash: token });
      if (verified.awaitingOtherAddress) return appendParams(target, { message: singleConfirmationAccepted }, !verified.pkce);
      if (verified.pkce) return appendParams(target, { code: await issueAuthCode(db, verified.user.id, verified.flowMethod) }, false);
      const session = await issueSession(db, svc.settings, verified.user.id, verified.method, call.req);
      return appendParams(
        target,
        {
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: "bearer",
          type: type === "email" ? "magiclink" : type,
        },
        true,
      );
    });
    redirect(call, location);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    const description = error.code === "otp_expired" ? "Email link is invalid or has expired" : error.message;
    const kind = error.status === 429 ? "over_request_rate_limit" : error.code === "otp_expired" ? "access_denied" : error.status >= 500 ? "server_error" : "invalid_request";
    redirect(call, appendParams(target, { error: kind, error_code: error.code, error_description: description }, !pkce));
  }
}

/** POST /verify with {type, token_hash} or {type, email, token}: the session, as JSON. */
export async function verifyPost(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.tokenVerifications);
  const type = parseVerifyType(stringField(params, "type"));
  const tokenHash = stringField(params, "token_hash");
  const email = stringField(params, "email");
  const otp = stringField(params, "token");
  const phone = stringField(params, "phone");
  if (email && phone) throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
  if (!tokenHash && (!otp || !email)) {
    if (phone) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
    throw badRequest("validation_failed", tokenHash || otp ? "Only an email address or phone number should be provided on verify" : "Verify requires either a token or a token hash");
  }
  if (tokenHash && otp) throw badRequest("validation_failed", "Verify requires either a token or a token hash, but not both");
  const body = await withTransaction(svc.pool, async (db) => {
    const verified = await verifyToken(db, svc.settings, type, tokenHash ? { tokenHash } : { email: email.toLowerCase(), otp });
    if (verified.awaitingOtherAddress) return { msg: singleConfirmationAccepted, code: 200 };
    return await issueSession(db, svc.settings, verified.user.id, verified.method, call.req);
  });
  ok(call, body);
}

