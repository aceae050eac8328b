import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // stack/ and tests/ are tooling: the app never imports them (see docs/architecture.md).
  outputFileTracingExcludes: { "*": ["./.stack/**", "./stack/**", "./tests/**", "./e2e/**"] },
  // `npm test` type-checks the whole repository (app, stack, tests) as its own layer before it
  // builds; a second pass inside `next build` would only repeat it.
  typescript: { ignoreBuildErrors: true },
  // thirdweb's wallets reach @coinbase/cdp-sdk, which imports its optional @x402/* peers on demand
  // for x402 payments; Cuepoint makes none and does not install them (see stubs/x402.ts).
  turbopack: {
    resolveAlias: Object.fromEntries(
      ["@x402/core/client", "@x402/evm", "@x402/evm/exact/client", "@x402/evm/upto/client", "@x402/svm/exact/client"].map((name) => [name, "./stubs/x402.ts"]),
    ),
  },
};

export default nextConfig;
