// Loaded on demand (dynamic import) so thirdweb stays out of the sign-in page's first load.
import { getInstalledWallets, injectedProvider, type Wallet } from "thirdweb/wallets";
import type { EthereumWallet } from "@supabase/supabase-js";
import { browserThirdwebClient } from "@/lib/chain/browser";

export interface InjectedWalletChoice {
  id: string;
  /** The name the wallet announces (EIP-6963), e.g. "MetaMask". */
  name: string;
  wallet: Wallet;
}

/** Browser wallets that announced themselves (EIP-6963), as thirdweb discovers them. */
export async function discoverInjectedWallets(): Promise<InjectedWalletChoice[]> {
  const names = new Map<string, string>();
  const onAnnounce = (event: Event) => {
    const info = (event as CustomEvent<{ info?: { rdns?: string; name?: string } }>).detail?.info;
    if (info?.rdns && info.name) names.set(info.rdns, info.name);
  };
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  // Wallets answer the discovery request asynchronously; give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 150));
  window.removeEventListener("eip6963:announceProvider", onAnnounce);
  return getInstalledWallets().map((wallet) => ({ id: wallet.id, name: names.get(wallet.id) ?? wallet.id, wallet }));
}

/**
 * Connects the chosen wallet with thirdweb and returns its EIP-1193 provider, which
 * supabase.auth.signInWithWeb3 uses to build and sign the EIP-4361 message.
 */
export async function connectInjectedWallet(clientId: string, choice: InjectedWalletChoice): Promise<EthereumWallet> {
  const chain = browserThirdwebClient(clientId);
  if (!chain.ok) throw new Error(chain.error);
  await choice.wallet.connect({ client: chain.client });
  const provider = injectedProvider(choice.wallet.id);
  if (!provider) throw new Error("The wallet disconnected before signing");
  return provider as unknown as EthereumWallet;
}
