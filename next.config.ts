import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // stack/ and tests/ are tooling: the app never imports them (see ARCHITECTURE.md).
  outputFileTracingExcludes: { "*": ["./.stack/**", "./stack/**", "./tests/**", "./e2e/**"] },
};

export default nextConfig;
