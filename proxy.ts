import type { NextRequest } from "next/server";
import { embedChromeHeader, isEmbedPath } from "@/lib/embed/oembed";
import { offlinePath } from "@/lib/pwa/offline";
import { contentSecurityPolicy, createNonce } from "@/lib/security/csp";
import { updateSession } from "@/lib/supabase/proxy";

export async function proxy(request: NextRequest) {
  const nonce = createNonce();
  // The embeddable player alone may be framed, by any site; every other page by none.
  const embed = isEmbedPath(request.nextUrl.pathname);
  const policy = contentSecurityPolicy({
    nonce,
    supabaseUrl: process.env.NEXT_PUBLIC_SUPABASE_URL ?? "",
    chainRpcUrls: [process.env.NEXT_PUBLIC_CHAIN_RPC_31337],
    development: process.env.NODE_ENV === "development",
    framing: embed ? "anyone" : "none",
  });
  // Next.js reads the nonce from the request's policy and puts it on the scripts it renders; the
  // root layout leaves out the site's header on embed pages and on the offline page, which the service
  // worker keeps and shows to anyone (set here always, so no request forges it).
  const chrome = embed ? "embed" : request.nextUrl.pathname === offlinePath ? "bare" : "site";
  const response = await updateSession(request, {
    "content-security-policy": policy,
    "x-nonce": nonce,
    [embedChromeHeader]: chrome,
  });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Every page and route handler; not static assets, images or the service worker's script.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|sw.js|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico)$).*)"],
};
