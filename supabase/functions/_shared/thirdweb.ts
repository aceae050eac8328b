// thirdweb for the functions that read chains: the supported chains with their RPC overrides
// (CHAIN_RPC_<id>, ENS_*), the client from the function's secrets by the seed's rule, and the
// thirdweb chain for a supported one.
import { createHash } from "node:crypto";
import { createThirdwebClient, type ThirdwebClient } from "npm:thirdweb@5.121.6";
import { type Chain, defineChain } from "npm:thirdweb@5.121.6/chains";
import { type ChainConfig, type SupportedChain, chainConfig } from "../../../lib/chain/chains.ts";
import { resolveChainCredentials } from "../../../lib/chain/credentials.ts";

export const chains: ChainConfig = chainConfig((name) => Deno.env.get(name));

/** The seed's rule, with the function's secrets (THIRDWEB_SECRET_KEY, THIRDWEB_CLIENT_ID). */
export function thirdwebClient(): { ok: true; client: ThirdwebClient } | { ok: false; error: string } {
  const credentials = resolveChainCredentials(
    { clientId: Deno.env.get("THIRDWEB_CLIENT_ID"), secretKey: Deno.env.get("THIRDWEB_SECRET_KEY") },
    (secretKey) => createHash("sha256").update(secretKey).digest("hex").slice(0, 32),
  );
  if (!credentials.ok) return credentials;
  return { ok: true, client: createThirdwebClient({ clientId: credentials.clientId, secretKey: credentials.secretKey }) };
}

/** The configured RPC when there is one, else thirdweb's own for the chain. */
export function thirdwebChain(chain: SupportedChain): Chain {
  return chain.rpc ? defineChain({ id: chain.id, name: chain.name, rpc: chain.rpc }) : defineChain(chain.id);
}
