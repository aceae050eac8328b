// Cuepoint's deploy script for the stack's local chain, named in package.json ("stack": {"chain":
// {"deploy": "chain/deploy.ts"}}). The stack starts Anvil and calls these: `deploy` once on each new
// chain, `apiUrlChanged` when a kept chain's stack API moved (the avatar records hold its URL),
// `version` to tell whether a chain was deployed from these contracts, `env` for the app's and
// the edge functions' variables. The transactions live in seed.ts, loaded only when there is work:
// viem takes a good part of a second to import, and a warm start has none.
import type { LocalChain } from "@cuepoint/stack";
import { readArtifacts } from "./compile.ts";
import { chainEnv } from "./deployment.ts";

const apiPort = (chain: LocalChain) => Number(new URL(chain.apiUrl).port);

/** The thirdweb client ID of a local development site: not a real one, as nothing local reaches thirdweb. */
export const localThirdwebClientId = "cuepoint-local";

/** The compiled contracts' input digest: a chain deployed from other contracts is replaced. */
export function version(): string {
  return readArtifacts().inputDigest;
}

/** Deploys the contracts at their fixed addresses and seeds ENS names, avatars and token balances. */
export async function deploy(chain: LocalChain): Promise<void> {
  const { deployAndSeed } = await import("./seed.ts");
  await deployAndSeed(chain.rpcUrl, apiPort(chain));
}

/** Points the seeded names' avatar records at the stack's API as it runs now. */
export async function apiUrlChanged(chain: LocalChain): Promise<void> {
  const { refreshAvatars } = await import("./seed.ts");
  await refreshAvatars(chain.rpcUrl, apiPort(chain));
}

/**
 * CHAIN_RPC_31337, ENS_CHAIN_ID, ENS_UNIVERSAL_RESOLVER and their NEXT_PUBLIC_ twins; and a thirdweb
 * client ID for the local chain, so wallet sign-in, linking and gated rooms work on `npm run dev`:
 * thirdweb needs an ID to make a client, and the local chain asks nothing of thirdweb's servers.
 */
export function env(chain: Pick<LocalChain, "rpcUrl">): Record<string, string> {
  return { ...chainEnv(chain.rpcUrl), NEXT_PUBLIC_THIRDWEB_CLIENT_ID: localThirdwebClientId };
}
