import type { NextRequest } from "next/server";
import { contentSecurityPolicy, createNonce } from "@/lib/security/csp";
import { updateSession } from "@/lib/supabase/proxy";

export async function proxy(request: NextRequest) {
  const nonce = createNonce();
  const policy = contentSecurityPolicy({
    nonce,
    supabaseUrl: process.env.NEXT_PUBLIC_SUPABASE_URL ?? "",
    chainRpcUrls: [process.env.NEXT_PUBLIC_CHAIN_RPC_31337],
    development: process.env.NODE_ENV === "development",
  });
  // Next.js reads the nonce from the request's policy and puts it on the scripts it renders.
  const response = await updateSession(request, { "content-security-policy": policy, "x-nonce": nonce });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Every page and route handler; not static assets or images.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico)$).*)"],
};
