import { AuthError, badRequest } from "./errors.ts";
import { issueAuthCode } from "./pkce.ts";
import { readParams, stringField } from "./request.ts";
import { type AuthService, type Call, limit, ok, redirect, redirectTo } from "./service.ts";
import { issueSession } from "./sessions.ts";
import { withTransaction } from "./users.ts";
import { invalidOtp, parseVerifyType, verifyToken } from "./verify.ts";

const singleConfirmationAccepted = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/** The redirect with the session in the fragment (implicit flow), keeping the target's query. */
function withFragment(base: string, params: Record<string, string>): string {
  return `${base.split("#")[0]}#${new URLSearchParams(params).toString()}`;
}

/** The redirect with `params` merged into the query (Go's url.Values: keys sorted). */
function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.searchParams.sort();
  return url.href;
}

/** GoTrue's oauthErrorMap: the OAuth `error` an HTTP status becomes on a redirect. */
const oauthErrors: Record<number, string> = { 400: "invalid_request", 401: "unauthorized_client", 403: "access_denied", 500: "server_error", 503: "temporarily_unavailable" };

/**
 * A failed link: the target's query is dropped and the error goes in the fragment, and for PKCE
 * links in the query as well (GoTrue's prepErrorRedirectURL).
 */
function withError(base: string, error: AuthError, pkce: boolean): string {
  const url = new URL(base);
  const params = new URLSearchParams();
  if (oauthErrors[error.status]) params.set("error", oauthErrors[error.status]);
  params.set("error_code", error.code);
  params.set("error_description", error.message);
  params.sort();
  url.search = pkce ? params.toString() : "";
  url.hash = params.toString();
  return url.href;
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
      if (verified.awaitingOtherAddress) {
        const message = verified.pkce ? withQuery(target, { message: singleConfirmationAccepted }) : target;
        return withFragment(message, { message: singleConfirmationAccepted });
      }
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
    const shown = error.code === "otp_expired" ? new AuthError(error.status, error.code, "Email link is invalid or has expired") : error;
    redirect(call, withError(target, shown, pkce));
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
    if (verified.awaitingOtherAddress) return { msg: singleConfirmationAccepted, code: "200" };
    return await issueSession(db, svc.settings, verified.user.id, verified.method, call.req);
  });
  ok(call, body);
}

