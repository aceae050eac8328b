import { createServerClient } from "@supabase/ssr";
import { type NextRequest, NextResponse } from "next/server";
import { owesSecondFactor, secondFactorPath } from "@/lib/auth/mfa";
import { publicEnv } from "@/lib/env";
import type { Database } from "@/types/database";

/**
 * Refreshes the session cookie on every request. The response returned is the very object whose
 * cookies the client set, so the refreshed tokens reach both the browser and the server render,
 * along with `requestHeaders` (e.g. the Content-Security-Policy whose nonce the render uses).
 */
export async function updateSession(request: NextRequest, requestHeaders: Record<string, string> = {}): Promise<NextResponse> {
  const forward = () => {
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(requestHeaders)) headers.set(name, value);
    return NextResponse.next({ request: { headers } });
  };
  let response = forward();
  const env = publicEnv();
  const supabase = createServerClient<Database>(env.supabaseUrl, env.supabaseKey, {
    auth: { flowType: "pkce" },
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll(cookiesToSet) {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        response = forward();
        for (const { name, value, options } of cookiesToSet) response.cookies.set(name, value, options);
      },
    },
  });
  // Nothing may run between creating the client and this call: it is what refreshes the session.
  const { data } = await supabase.auth.getClaims();
  if (data && asksForSecondFactor(request) && owesSecondFactor(data.claims.aal, (await supabase.auth.getSession()).data.session)) {
    return toSecondFactor(request, response);
  }
  return response;
}

/** Page loads (not Server Action posts, not the code page or the auth routes themselves). */
function asksForSecondFactor(request: NextRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = request.nextUrl.pathname;
  return path !== secondFactorPath && !path.startsWith("/auth/");
}

/** Someone signed in with a password whose account has a second factor: the code comes first. */
function toSecondFactor(request: NextRequest, response: NextResponse): NextResponse {
  const url = request.nextUrl.clone();
  url.pathname = secondFactorPath;
  url.search = `?${new URLSearchParams({ next: `${request.nextUrl.pathname}${request.nextUrl.search}` })}`;
  const redirect = NextResponse.redirect(url, 303);
  for (const cookie of response.cookies.getAll()) redirect.cookies.set(cookie);
  return redirect;
}
