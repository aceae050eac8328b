import { AuthError, badRequest } from "./errors.ts";
import { issueAuthCode } from "./pkce.ts";
import { readParams, stringField } from "./request.ts";
import { type AuthService, type Call, limit, ok, redirect, redirectTo } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { withTransaction } from "./users.ts";
import { validatePhone, verifyPhone } from "./phone.ts";
import { invalidOtp, parsePostVerifyType, parseVerifyType, verifyToken } from "./verify.ts";

const singleConfirmationAccepted = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/** Go's url.Values.Encode: keys sorted, form-encoded. */
function encode(params: Record<string, string>): string {
  const search = new URLSearchParams(params);
  search.sort();
  return search.toString();
}

/**
 * The redirect with `fragment` in the URL fragment, plus GoTrue's `sb` marker (how clients tell a
 * Supabase Auth redirect apart), keeping the target's query.
 */
function withFragment(base: string, fragment: Record<string, string>): string {
  return `${base.split("#")[0]}#${encode({ ...fragment, sb: "" })}`;
}

/** The redirect with `params` merged into the query (re-encoded with sorted keys, as Go does). */
function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.searchParams.sort();
  return url.href;
}

/** GoTrue's oauthErrorMap: the OAuth `error` an HTTP status becomes on a redirect. */
const oauthErrors: Record<number, string> = { 400: "invalid_request", 401: "unauthorized_client", 403: "access_denied", 500: "server_error", 503: "temporarily_unavailable" };

/**
 * A failed link (GoTrue's prepErrorRedirectURL): the error in the fragment, and for PKCE links
 * merged into the target's query as well.
 */
function withError(base: string, error: AuthError, pkce: boolean): string {
  const params: Record<string, string> = {};
  if (oauthErrors[error.status]) params.error = oauthErrors[error.status];
  params.error_code = error.code;
  params.error_description = error.message;
  return withFragment(pkce ? withQuery(base, params) : base, params);
}

/** The first of two email-change links (GoTrue's prepRedirectURL): a message, not a session. */
function withMessage(base: string, message: string, pkce: boolean): string {
  const url = new URL(base);
  if (pkce) url.searchParams.set("message", message);
  url.searchParams.sort();
  return withFragment(url.href, { message });
}

/**
 * GET /verify?token=…&type=…&redirect_to=… — the link in GoTrue's own templates. PKCE tokens
 * redirect with `?code=`; others with the session in the URL fragment. Failures redirect too,
 * with error, error_code and error_description.
 */
export async function verifyGet(svc: AuthService, call: Call): Promise<void> {
  const token = call.url.searchParams.get("token") ?? "";
  const asked = redirectTo(svc, call);
  const target = URL.canParse(asked) ? asked : svc.settings.siteUrl;
  const pkce = token.startsWith("pkce_");
  try {
    limit(call, svc.limits.tokenVerifications);
    const type = parseVerifyType(call.url.searchParams.get("type") ?? "");
    if (!token) throw invalidOtp();
    const location = await withTransaction(svc.pool, async (db) => {
      const verified = await verifyToken(db, svc.settings, type, { tokenHash: token });
      if (verified.awaitingOtherAddress) return withMessage(target, singleConfirmationAccepted, verified.pkce);
      if (verified.pkce) return withQuery(target, { code: await issueAuthCode(db, verified.user.id, verified.flowMethod) });
      const session = await issueSession(db, svc.settings, verified.user.id, verified.method, call.req);
      return withFragment(target, {
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: "bearer",
          type: type === "email" ? "magiclink" : type,
        });
    });
    redirect(call, location);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    redirect(call, withError(target, error, pkce));
  }
}

/** POST /verify with {type, token_hash} or {type, email, token}: the session, as JSON. */
export async function verifyPost(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.tokenVerifications);
  const type = parsePostVerifyType(stringField(params, "type"));
  const tokenHash = stringField(params, "token_hash");
  const email = stringField(params, "email");
  const otp = stringField(params, "token");
  const phone = stringField(params, "phone");
  if ((!otp && !tokenHash) || (otp && tokenHash)) throw badRequest("validation_failed", "Verify requires either a token or a token hash");
  // An OTP comes with exactly one of an email or a phone; a token hash comes alone.
  if (otp && Boolean(email) === Boolean(phone)) throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
  if (tokenHash && (email || phone || stringField(params, "redirect_to"))) throw badRequest("validation_failed", "Only the token_hash and type should be provided");
  const phoneNumber = otp && phone ? validatePhone(phone) : "";
  if (type === "sms" || type === "phone_change") {
    // Phone codes are looked up by number: a token hash or an email address finds no one.
    if (!phoneNumber) throw invalidOtp(Boolean(tokenHash));
    const session = await withTransaction(svc.pool, async (db) => {
      const user = await verifyPhone(svc, db, type, phoneNumber, otp);
      return await issueSession(db, svc.settings, user.id, "otp", call.req);
    });
    return ok(call, session);
  }
  if (phoneNumber) throw invalidOtp(false);
  const body = await withTransaction(svc.pool, async (db) => {
    const verified = await verifyToken(db, svc.settings, type, tokenHash ? { tokenHash } : { email: email.toLowerCase(), otp });
    if (verified.awaitingOtherAddress) return { msg: singleConfirmationAccepted, code: "200" };
    return await issueSession(db, svc.settings, verified.user.id, verified.method, call.req);
  });
  ok(call, body);
}

