// A supported chain as thirdweb's Chain: the configured RPC when there is one, else thirdweb's.
// Only code that reads the chain imports this (thirdweb/chains is a narrow entry point).
import { type Chain, defineChain } from "thirdweb/chains";
import type { SupportedChain } from "./chains";

export function thirdwebChain(chain: SupportedChain): Chain {
  return chain.rpc ? defineChain({ id: chain.id, name: chain.name, rpc: chain.rpc }) : defineChain(chain.id);
}
