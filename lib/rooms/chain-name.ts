import { localChain, publicChains } from "@/lib/chain/chains";

const names = new Map([...publicChains, localChain].map((chain) => [chain.id, chain.name]));

/** "Base", "Local chain"; an id this build does not know is shown as "chain 12345". */
export function chainName(chainId: number): string {
  return names.get(chainId) ?? `chain ${chainId}`;
}

const standardNames: Record<string, string> = { erc20: "ERC-20", erc721: "ERC-721", erc1155: "ERC-1155" };

export function standardName(standard: string): string {
  return standardNames[standard] ?? standard;
}
