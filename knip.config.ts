// Dependency hygiene (a layer of `npm test`, and `npm run knip`): every direct dependency of the
// app and of the stack package is imported or run somewhere, and everything imported is declared.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  workspaces: {
    ".": {
      // chain/deploy.ts is the deploy script package.json names for the stack's local chain (the
      // stack imports it); chain/compile.ts also runs as `npm run chain:compile`.
      entry: ["scripts/*.ts", "chain/deploy.ts", "chain/compile.ts"],
      project: ["{app,components,lib,tests,e2e,scripts,chain}/**/*.{ts,tsx,css}", "*.{ts,mjs}"],
      // Solidity sources that solc reads from node_modules when compiling chain/contracts.
      ignoreDependencies: ["@openzeppelin/contracts"],
    },
    stack: {
      entry: ["server/main.ts", "server/functions/bootstrap.ts", "bench/*.ts"],
      project: ["**/*.ts"],
      // Run as programs from node_modules, by path: the Supabase CLI (migrations, gen types),
      // Deno (Edge Functions), oxfmt (formats generated types), autocannon (benchmarks), Anvil (the
      // local chain, its platform binary found through the package).
      ignoreDependencies: ["supabase", "deno", "oxfmt", "autocannon", "@types/autocannon", "@foundry-rs/anvil"],
    },
  },
  // Deno code with npm: specifiers, run by the edge runtime.
  ignore: ["supabase/functions/**"],
};

export default config;
