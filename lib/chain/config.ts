import { type ChainConfig, chainConfig } from "./chains";

// Literal reads: Next.js inlines NEXT_PUBLIC_* values into browser bundles only when written out.
const publicValues: Record<string, string | undefined> = {
  NEXT_PUBLIC_CHAIN_RPC_1: process.env.NEXT_PUBLIC_CHAIN_RPC_1,
  NEXT_PUBLIC_CHAIN_RPC_8453: process.env.NEXT_PUBLIC_CHAIN_RPC_8453,
  NEXT_PUBLIC_CHAIN_RPC_10: process.env.NEXT_PUBLIC_CHAIN_RPC_10,
  NEXT_PUBLIC_CHAIN_RPC_42161: process.env.NEXT_PUBLIC_CHAIN_RPC_42161,
  NEXT_PUBLIC_CHAIN_RPC_137: process.env.NEXT_PUBLIC_CHAIN_RPC_137,
  NEXT_PUBLIC_CHAIN_RPC_31337: process.env.NEXT_PUBLIC_CHAIN_RPC_31337,
  NEXT_PUBLIC_ENS_CHAIN_ID: process.env.NEXT_PUBLIC_ENS_CHAIN_ID,
  NEXT_PUBLIC_ENS_UNIVERSAL_RESOLVER: process.env.NEXT_PUBLIC_ENS_UNIVERSAL_RESOLVER,
};

/** The chains and ENS setup as the browser sees them (NEXT_PUBLIC_ variables, inlined at build time). */
export function browserChainConfig(): ChainConfig {
  return chainConfig((name) => publicValues[name], "NEXT_PUBLIC_");
}

/** The same on the server: unprefixed variables first, then the public ones. */
export function serverChainConfig(env: Record<string, string | undefined> = process.env): ChainConfig {
  return chainConfig((name) => env[name] || env[`NEXT_PUBLIC_${name}`]);
}
