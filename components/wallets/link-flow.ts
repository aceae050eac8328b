// Linking a wallet, loaded on demand when the person clicks (thirdweb stays out of /account's
// first load): connect the browser wallet with thirdweb, ask link-wallet for a nonce, have the
// wallet sign the EIP-4361 message, and send it back.
import { browserThirdwebClient } from "@/lib/chain/browser";
import { chainNames, findChain } from "@/lib/chain/chains";
import { browserChainConfig } from "@/lib/chain/config";
import type { LinkedWallet } from "@/lib/validation/wallet";
import { buildSiwe, linkStatement } from "@/lib/wallets/siwe";
import { callLinkWallet } from "./link-wallet-call";
import type { InjectedWalletChoice } from "@/components/auth/wallet-connect";

export { discoverInjectedWallets } from "@/components/auth/wallet-connect";

export type LinkOutcome = { ok: true; wallet: LinkedWallet; alreadyLinked: boolean } | { ok: false; error: string };

export async function linkInjectedWallet(clientId: string, choice: InjectedWalletChoice): Promise<LinkOutcome> {
  const thirdweb = browserThirdwebClient(clientId);
  if (!thirdweb.ok) return { ok: false, error: thirdweb.error };
  const account = await choice.wallet.connect({ client: thirdweb.client });
  const chains = browserChainConfig();
  const chainId = choice.wallet.getChain()?.id ?? chains.ens.chain.id;
  if (!findChain(chains, chainId))
    return {
      ok: false,
      error: `Your wallet is on chain ${chainId}, which isn't supported. Switch it to ${chainNames(chains)} and try again.`,
    };

  const issued = await callLinkWallet({ action: "nonce" });
  if ("error" in issued) return { ok: false, error: issued.error };
  if (!("nonce" in issued)) return { ok: false, error: "We couldn't start linking — try again." };
  const now = new Date();
  const message = buildSiwe({
    domain: window.location.host,
    address: account.address,
    uri: `${window.location.origin}/account`,
    chainId,
    nonce: issued.nonce,
    issuedAt: now,
    expirationTime: new Date(Math.min(now.getTime() + 10 * 60 * 1000, new Date(issued.expires_at).getTime())),
    statement: linkStatement,
  });
  const signature = await account.signMessage({ message });
  const linked = await callLinkWallet({ message, signature });
  if ("error" in linked) return { ok: false, error: linked.error };
  if (!("wallet" in linked)) return { ok: false, error: "We couldn't link the wallet — try again." };
  return { ok: true, wallet: linked.wallet, alreadyLinked: linked.already_linked };
}
