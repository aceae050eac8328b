// GoTrue's /verify: GET for the links in its emails (answers with a redirect), POST for a token
// hash or an OTP (answers with the session as JSON).
import { AuthError, badRequest } from "../errors.ts";
import { validatePhone } from "../phone.ts";
import { readParams, stringField } from "../request.ts";
import { type AuthService, type Call, type RouteGroup, limit, ok, redirect, redirectTo } from "../service.ts";
import { invalidOtp, parsePostVerifyType, parseVerifyType, verifyEmailToken, verifyLink, verifyPhoneToken } from "../verify.ts";
import { withError, withFragment, withMessage, withQuery } from "../verify-redirect.ts";

const singleConfirmationAccepted = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/**
 * GET /verify?token=…&type=…&redirect_to=… — the link in GoTrue's own templates. PKCE tokens
 * redirect with `?code=`; others with the session in the URL fragment. Failures redirect too,
 * with error, error_code and error_description.
 */
async function verifyGet(svc: AuthService, call: Call): Promise<void> {
  const token = call.url.searchParams.get("token") ?? "";
  const asked = redirectTo(svc, call);
  const target = URL.canParse(asked) ? asked : svc.settings.siteUrl;
  const pkce = token.startsWith("pkce_");
  try {
    limit(call, svc.limits.tokenVerifications);
    const type = parseVerifyType(call.url.searchParams.get("type") ?? "");
    if (!token) throw invalidOtp();
    const outcome = await verifyLink(svc, call.req, type, token);
    if (outcome.awaitingOtherAddress) return redirect(call, withMessage(target, singleConfirmationAccepted, outcome.pkce));
    if ("code" in outcome) return redirect(call, withQuery(target, { code: outcome.code }));
    const { session } = outcome;
    redirect(
      call,
      withFragment(target, {
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: "bearer",
        type: type === "email" ? "magiclink" : type,
      }),
    );
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    redirect(call, withError(target, error, pkce));
  }
}

/** POST /verify with {type, token_hash} or {type, email, token} or {type, phone, token}: the session, as JSON. */
async function verifyPost(svc: AuthService, call: Call): Promise<void> {
  const params = await readParams(call.req);
  limit(call, svc.limits.tokenVerifications);
  const type = parsePostVerifyType(stringField(params, "type"));
  const tokenHash = stringField(params, "token_hash");
  const email = stringField(params, "email");
  const otp = stringField(params, "token");
  const phone = stringField(params, "phone");
  if ((!otp && !tokenHash) || (otp && tokenHash)) throw badRequest("validation_failed", "Verify requires either a token or a token hash");
  // An OTP comes with exactly one of an email or a phone; a token hash comes alone.
  if (otp && Boolean(email) === Boolean(phone))
    throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
  if (tokenHash && (email || phone || stringField(params, "redirect_to")))
    throw badRequest("validation_failed", "Only the token_hash and type should be provided");
  const phoneNumber = otp && phone ? validatePhone(phone) : "";
  if (type === "sms" || type === "phone_change") {
    // Phone codes are looked up by number: a token hash or an email address finds no one.
    if (!phoneNumber) throw invalidOtp(Boolean(tokenHash));
    return ok(call, await verifyPhoneToken(svc, call.req, type, phoneNumber, otp));
  }
  if (phoneNumber) throw invalidOtp(false);
  const session = await verifyEmailToken(svc, call.req, type, tokenHash ? { tokenHash } : { email: email.toLowerCase(), otp });
  ok(call, session ?? { msg: singleConfirmationAccepted, code: "200" });
}

export const verifyRoutes: RouteGroup = { paths: { "/verify": { GET: verifyGet, POST: verifyPost } } };
