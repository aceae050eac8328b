// Chain reads for linking, through thirdweb: signature checks (EOA, and EIP-1271 / ERC-6492 smart
// accounts on the message's chain) and ENS name + avatar. An RPC that does not answer is reported
// as ChainUnreachable, never mistaken for "no name" or "bad signature".
import type { ThirdwebClient } from "npm:thirdweb@5.121.6";
import { verifyContractWalletSignature, verifyEOASignature } from "npm:thirdweb@5.121.6/auth";
import { resolveAvatar, resolveName } from "npm:thirdweb@5.121.6/extensions/ens";
import { eth_getCode, getRpcClient } from "npm:thirdweb@5.121.6/rpc";
import type { SupportedChain } from "../../../lib/chain/chains.ts";
import { chains, thirdwebChain } from "../_shared/thirdweb.ts";

export { chains, thirdwebClient } from "../_shared/thirdweb.ts";

export class ChainUnreachable extends Error {
  constructor(
    readonly chain: SupportedChain,
    cause: unknown,
  ) {
    super(`${chain.name} did not answer: ${(cause as Error)?.message ?? cause}`);
  }
}

async function reach<T>(chain: SupportedChain, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new ChainUnreachable(chain, error);
  }
}

/** Whether `signature` over `message` is the address's: offline for a key, on chain for a smart account. */
export async function signatureIsFrom(
  client: ThirdwebClient,
  chain: SupportedChain,
  input: { message: string; signature: `0x${string}`; address: `0x${string}` },
): Promise<boolean> {
  try {
    if (await verifyEOASignature(input)) return true;
  } catch {
    // not a well-formed key signature; a smart account's may still be valid
  }
  const onChain = thirdwebChain(chain);
  const rpc = getRpcClient({ client, chain: onChain });
  const code = await reach(chain, () => eth_getCode(rpc, { address: input.address }));
  // ERC-6492 signatures end with this magic suffix and may come from an account not yet deployed
  const wrapped = input.signature.toLowerCase().endsWith("6492649264926492649264926492649264926492649264926492649264926492");
  if ((!code || code === "0x") && !wrapped) return false;
  return reach(chain, () => verifyContractWalletSignature({ ...input, chain: onChain, client }));
}

export interface EnsRecord {
  ens_name: string | null;
  ens_avatar: string | null;
}

/** The address's primary ENS name and that name's avatar, on the configured ENS chain. */
export async function lookUpEns(client: ThirdwebClient, address: `0x${string}`): Promise<EnsRecord> {
  const { chain, universalResolver } = chains.ens;
  const resolverChain = thirdwebChain(chain);
  // thirdweb answers "no name" to any failure, so first make sure the chain is there at all
  await reach(chain, () => getRpcClient({ client, chain: resolverChain })({ method: "eth_blockNumber" }));
  const ens = { client, resolverChain, resolverAddress: universalResolver };
  let name: string | null = null;
  try {
    name = await resolveName({ ...ens, address });
  } catch {
    name = null; // a primary name that does not point back at the address is no name
  }
  if (!name || name.length > 255) return { ens_name: null, ens_avatar: null };
  const avatar = await resolveAvatar({ ...ens, name }).catch(() => null);
  // only web images: no data: or other schemes in pages that show the avatar
  const usable = avatar && avatar.length <= 2048 && /^https?:\/\//i.test(avatar);
  return { ens_name: name, ens_avatar: usable ? avatar : null };
}
