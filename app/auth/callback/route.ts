import { type NextRequest, NextResponse } from "next/server";
import { linkErrorReason } from "@/lib/auth/messages";
import { safeNextPath } from "@/lib/auth/redirect";
import { createClient } from "@/lib/supabase/server";

/**
 * PKCE redirects land here with `?code=`: exchange it (the code verifier is in this browser's
 * cookies) for a session, then go to `next` on this site. Supabase Auth's own errors arrive as
 * `error_code` and go to /auth/error.
 */
export async function GET(request: NextRequest) {
  const params = request.nextUrl.searchParams;
  const code = params.get("code");
  const next = safeNextPath(params.get("next"));
  const fail = (reason: string | null) => NextResponse.redirect(new URL(`/auth/error?reason=${linkErrorReason(reason)}`, request.url));

  if (params.get("error_code") || params.get("error")) return fail(params.get("error_code"));
  if (!code) return fail(null);
  const supabase = await createClient();
  const { error } = await supabase.auth.exchangeCodeForSession(code);
  if (error) return fail(error.code ?? null);
  return NextResponse.redirect(new URL(next, request.url));
}
