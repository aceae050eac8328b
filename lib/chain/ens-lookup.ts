// One ENS lookup in the browser through thirdweb (narrow entry points), on the configured ENS chain.
import { createThirdwebClient } from "thirdweb";
import { resolveAvatar, resolveName } from "thirdweb/extensions/ens";
import { browserChainConfig } from "./config";
import type { EnsIdentity } from "./ens-cache";
import { thirdwebChain } from "./thirdweb-chain";

export async function resolveEnsIdentity(clientId: string, address: `0x${string}`): Promise<EnsIdentity> {
  const { ens } = browserChainConfig();
  const lookup = { client: createThirdwebClient({ clientId }), resolverChain: thirdwebChain(ens.chain), resolverAddress: ens.universalResolver };
  const name = await resolveName({ ...lookup, address }).catch(() => null);
  if (!name) return { name: null, avatar: null };
  return { name, avatar: await resolveAvatar({ ...lookup, name }).catch(() => null) };
}
