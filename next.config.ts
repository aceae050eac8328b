import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";
import { localBackendProblem } from "./lib/local-backend";
import { staticSecurityHeaders } from "./lib/security/headers";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // stack/ and tests/ are tooling: the app never imports them (see ARCHITECTURE.md).
  outputFileTracingExcludes: { "*": ["./.stack/**", "./stack/**", "./tests/**", "./e2e/**"] },
  // `npm test` type-checks the whole repository (app, stack, tests) as its own layer before it
  // builds; a second pass inside `next build` would only repeat it.
  typescript: { ignoreBuildErrors: true },
  // The Content-Security-Policy needs a fresh nonce per request, so proxy.ts sets it; these are the same for every response.
  headers: async () => [{ source: "/:path*", headers: staticSecurityHeaders(process.env.NODE_ENV === "production") }],
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
