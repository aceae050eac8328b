// The chains Cuepoint supports and where ENS names resolve, as plain data read from the
// environment. No thirdweb here: the browser, the server and the link-wallet edge function (Deno,
// by relative path) all read the same rules, and thirdweb loads only where a chain is actually used.
//
// Each chain's RPC can be overridden with CHAIN_RPC_<id> (server, functions) or
// NEXT_PUBLIC_CHAIN_RPC_<id> (browser). Without an override, thirdweb's own RPC for the chain is
// used. The local chain (31337) is supported only when its RPC is configured, as the local stack does.
// ENS resolves on Ethereum with thirdweb's defaults unless ENS_CHAIN_ID / ENS_UNIVERSAL_RESOLVER
// point it elsewhere (the local stack points it at its own chain).

export interface ChainInfo {
  id: number;
  name: string;
}

export const publicChains: readonly ChainInfo[] = [
  { id: 1, name: "Ethereum" },
  { id: 8453, name: "Base" },
  { id: 10, name: "Optimism" },
  { id: 42161, name: "Arbitrum" },
  { id: 137, name: "Polygon" },
];

/** Each public chain's block explorer (its name and address); the local chain has none. */
const explorers: Readonly<Record<number, { name: string; url: string }>> = {
  1: { name: "Etherscan", url: "https://etherscan.io" },
  8453: { name: "Basescan", url: "https://basescan.org" },
  10: { name: "Optimism Etherscan", url: "https://optimistic.etherscan.io" },
  42161: { name: "Arbiscan", url: "https://arbiscan.io" },
  137: { name: "Polygonscan", url: "https://polygonscan.com" },
};

export const localChain: ChainInfo = { id: 31337, name: "Local chain" };

export interface SupportedChain extends ChainInfo {
  /** The configured RPC URL, or undefined for thirdweb's default RPC of that chain. */
  rpc?: string;
}

export interface EnsConfig {
  chain: SupportedChain;
  /** The universal resolver to ask; undefined for thirdweb's default (ENS's own on Ethereum). */
  universalResolver?: `0x${string}`;
}

export interface ChainConfig {
  chains: SupportedChain[];
  ens: EnsConfig;
}

/** Variables by name, e.g. (name) => process.env[name] or Deno.env.get(name). */
export type EnvReader = (name: string) => string | undefined;

const httpUrl = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? trimmed : undefined;
  } catch {
    return undefined;
  }
};

/** The supported chains and the ENS setup from variables named `<prefix>CHAIN_RPC_<id>`, `<prefix>ENS_CHAIN_ID`, `<prefix>ENS_UNIVERSAL_RESOLVER`. */
export function chainConfig(read: EnvReader, prefix = ""): ChainConfig {
  const rpcOf = (id: number) => httpUrl(read(`${prefix}CHAIN_RPC_${id}`));
  const chains: SupportedChain[] = publicChains.map((chain) => ({ ...chain, rpc: rpcOf(chain.id) }));
  const localRpc = rpcOf(localChain.id);
  if (localRpc) chains.push({ ...localChain, rpc: localRpc });

  const ensChainId = Number(read(`${prefix}ENS_CHAIN_ID`) || 1);
  const ensChain = chains.find((chain) => chain.id === ensChainId) ?? chains[0];
  const resolver = read(`${prefix}ENS_UNIVERSAL_RESOLVER`)?.trim();
  return {
    chains,
    ens: { chain: ensChain, universalResolver: resolver && /^0x[0-9a-fA-F]{40}$/.test(resolver) ? (resolver as `0x${string}`) : undefined },
  };
}

export function findChain(config: ChainConfig, id: number): SupportedChain | undefined {
  return config.chains.find((chain) => chain.id === id);
}

/** "Ethereum, Base, Optimism, Arbitrum or Polygon" */
export function chainNames(config: ChainConfig): string {
  const names = config.chains.map((chain) => chain.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
}

/**
 * A token's page on its chain's block explorer ("View on Basescan"), or null where the chain has
 * none (the local chain). An ERC-1155 item's page names its token id.
 */
export function tokenExplorerLink(
  chainId: number,
  contractAddress: string,
  tokenId: string | null = null,
): { name: string; url: string } | null {
  const explorer = explorers[chainId];
  if (!explorer || !/^0x[0-9a-fA-F]{40}$/.test(contractAddress)) return null;
  const item = tokenId !== null && /^[0-9]{1,78}$/.test(tokenId) ? `?a=${tokenId}` : "";
  return { name: explorer.name, url: `${explorer.url}/token/${contractAddress.toLowerCase()}${item}` };
}
