// A test wallet in the page: an EIP-1193 provider announced over EIP-6963 (how thirdweb finds
// injected wallets), whose personal_sign is done in Node by a viem private-key account.
import type { Page } from "@playwright/test";
import { type Hex, isHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

export async function injectTestWallet(page: Page, privateKey: Hex = generatePrivateKey(), { refuseSigning = false } = {}) {
  const account = privateKeyToAccount(privateKey);
  await page.exposeFunction("__cuepointE2eSign", (data: string) =>
    account.signMessage({ message: isHex(data) ? { raw: data as Hex } : data }),
  );
  await page.addInitScript(
    ({ address, refuse }: { address: string; refuse: boolean }) => {
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case "eth_requestAccounts":
            case "eth_accounts":
              return [address];
            case "eth_chainId":
              return "0x1";
            case "net_version":
              return "1";
            case "personal_sign":
              if (refuse) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
              return (window as unknown as { __cuepointE2eSign: (d: string) => Promise<string> }).__cuepointE2eSign(String(params?.[0]));
            case "wallet_switchEthereumChain":
            case "wallet_addEthereumChain":
              return null;
            default:
              throw Object.assign(new Error(`The test wallet does not support ${method}`), { code: 4200 });
          }
        },
        on() {},
        removeListener() {},
      };
      const info = {
        uuid: "00000000-0000-4000-8000-00000000e2e0",
        name: "E2E Wallet",
        icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
        rdns: "test.cuepoint.e2e",
      };
      const announce = () =>
        window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    { address: account.address, refuse: refuseSigning },
  );
  return account;
}
