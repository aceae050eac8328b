import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";
import { localBackendProblem } from "./lib/local-backend";
import { staticSecurityHeaders } from "./lib/security/headers";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `next dev` compiles a dynamic import's target when the page first asks for it (browser) or first
  // reaches it (server render), not with the route: /login's wallet sign-in (thirdweb, thousands of
  // modules) compiles on the first "Connect wallet" click instead of on the first visit to /login.
  // Production builds are unaffected.
  experimental: { turbopackLazyDynamicImports: true, turbopackLazyDynamicImportsSSR: true },
  // stack/ and tests/ are tooling: the app never imports them (see docs/architecture.md).
  outputFileTracingExcludes: { "*": ["./.stack/**", "./stack/**", "./tests/**", "./e2e/**"] },
  // `npm test` type-checks the whole repository (app, stack, tests) as its own layer before it
  // builds; a second pass inside `next build` would only repeat it.
  typescript: { ignoreBuildErrors: true },
  // thirdweb's wallets reach @coinbase/cdp-sdk, which imports its optional @x402/* peers on demand
  // for x402 payments; Cuepoint makes none and does not install them (see stubs/x402.ts).
  turbopack: {
    resolveAlias: Object.fromEntries(
      ["@x402/core/client", "@x402/evm", "@x402/evm/exact/client", "@x402/evm/upto/client", "@x402/svm/exact/client"].map((name) => [
        name,
        "./stubs/x402.ts",
      ]),
    ),
  },
  // The Content-Security-Policy needs a fresh nonce per request, so proxy.ts sets it; these are the same for every response.
  // Pages under /embed/ (the embeddable player) may be framed by any site: no X-Frame-Options there.
  headers: async () => {
    const production = process.env.NODE_ENV === "production";
    return [
      { source: "/((?!embed/).*)", headers: staticSecurityHeaders(production) },
      { source: "/embed/:path*", headers: staticSecurityHeaders(production, { framable: true }) },
      // The service worker's script is checked for a new version on every visit, never taken from a
      // cache unasked; its scope stays the default, the site's root (no Service-Worker-Allowed).
      { source: "/sw.js", headers: [{ key: "Cache-Control", value: "no-cache" }] },
    ];
  },
};

export default async function config(phase: string): Promise<NextConfig> {
  if (phase === PHASE_DEVELOPMENT_SERVER || phase === PHASE_PRODUCTION_BUILD) {
    const problem = await localBackendProblem(process.cwd());
    if (problem) {
      console.error(`\n${problem}\n`);
      process.exit(1);
    }
  }
  return nextConfig;
}
