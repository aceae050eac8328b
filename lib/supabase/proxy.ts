import { createServerClient } from "@supabase/ssr";
import { type NextRequest, NextResponse } from "next/server";
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
  await supabase.auth.getClaims();
  return response;
}
