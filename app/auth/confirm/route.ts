import type { EmailOtpType } from "@supabase/supabase-js";
import { type NextRequest, NextResponse } from "next/server";
import { linkErrorReason } from "@/lib/auth/messages";
import { linkLandingPath } from "@/lib/auth/redirect";
import { createClient } from "@/lib/supabase/server";

const emailOtpTypes = new Set<EmailOtpType>(["signup", "invite", "magiclink", "recovery", "email_change", "email"]);

/**
 * Email links land here (supabase/templates): verify the token hash, which signs the person in,
 * then go to `next` — the redirect the link carries, kept on this site — or to /account/password
 * after a recovery link, or to /welcome (then `next`) after a sign-up's confirmation.
 */
export async function GET(request: NextRequest) {
  const params = request.nextUrl.searchParams;
  const tokenHash = params.get("token_hash");
  const type = params.get("type") as EmailOtpType | null;
  const siteUrl = process.env.NEXT_PUBLIC_SITE_URL;
  const next = linkLandingPath(params.get("next"), [
    request.nextUrl.origin,
    ...(siteUrl && URL.canParse(siteUrl) ? [new URL(siteUrl).origin] : []),
  ]);
  const fail = (code: string | null) => NextResponse.redirect(new URL(`/auth/error?reason=${linkErrorReason(code)}`, request.url));

  if (!tokenHash || !type || !emailOtpTypes.has(type)) return fail(null);
  const supabase = await createClient();
  const { error } = await supabase.auth.verifyOtp({ type, token_hash: tokenHash });
  if (error) return fail(error.code ?? null);
  if (type === "recovery") return NextResponse.redirect(new URL("/account/password", request.url));
  // A confirmed sign-up is the first visit: the person chooses the names sign-up made up, then goes on.
  if (type === "signup") return NextResponse.redirect(new URL(`/welcome?next=${encodeURIComponent(next)}`, request.url));
  return NextResponse.redirect(new URL(next, request.url));
}
