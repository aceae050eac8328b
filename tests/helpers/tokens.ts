// The local chain's test tokens in tests: mint to fresh wallets (the deployer owns the contracts),
// give a wallet gas, move tokens with the holder's key, read balances. Fresh wallets per test keep
// the seeded demo wallets' holdings as the seed left them.
import { createPublicClient, createWalletClient, defineChain, erc721Abi, http, parseAbi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { contracts, deployer, localDeployment } from "../../chain/deployment";
import { config } from "./stack";

const deployment = localDeployment(config);
export const localChain = defineChain({
  id: deployment.chainId,
  name: "Local chain",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [deployment.rpcUrl] } },
});
const chainReader = createPublicClient({ chain: localChain, transport: http(deployment.rpcUrl) });

const mintAbi = parseAbi(["function mint(address to, uint256 amount)"]);
const mintPassAbi = parseAbi(["function mint(address to, uint256 tokenId)"]);
const itemsAbi = parseAbi([
  "function mint(address to, uint256 id, uint256 amount)",
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)",
]);

/** Sends a transaction and waits for it; retries when another test took the sender's nonce first. */
async function send(
  privateKey: Hex,
  request: { address: `0x${string}`; abi: readonly unknown[]; functionName: string; args: readonly unknown[] },
): Promise<void> {
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), chain: localChain, transport: http(deployment.rpcUrl) });
  for (let attempt = 0; ; attempt++) {
    try {
      const hash = await wallet.writeContract(request as Parameters<typeof wallet.writeContract>[0]);
      const receipt = await chainReader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== "success") throw new Error(`${request.functionName} reverted`);
      return;
    } catch (error) {
      if (attempt < 5 && /nonce|already known|replacement/i.test(String(error))) continue;
      throw error;
    }
  }
}

export const cue = (whole: bigint) => whole * 10n ** 18n;

export async function mintErc20(to: `0x${string}`, amount: bigint) {
  await send(deployer.privateKey, { address: contracts.erc20, abi: mintAbi, functionName: "mint", args: [to, amount] });
}

/** Mints a new pass to `to` and returns its token id. */
export async function mintErc721(to: `0x${string}`): Promise<bigint> {
  const tokenId = 1_000_000n + BigInt(Math.floor(Math.random() * 1e12));
  await send(deployer.privateKey, { address: contracts.erc721, abi: mintPassAbi, functionName: "mint", args: [to, tokenId] });
  return tokenId;
}

export async function mintErc1155(to: `0x${string}`, id: bigint, amount: bigint) {
  await send(deployer.privateKey, { address: contracts.erc1155, abi: itemsAbi, functionName: "mint", args: [to, id, amount] });
}

/** Gas money for a fresh wallet (Anvil sets the balance directly). */
export async function fundGas(address: `0x${string}`) {
  await chainReader.request({ method: "anvil_setBalance" as never, params: [address, "0x8ac7230489e80000"] as never });
}

export async function transferErc721(fromKey: Hex, to: `0x${string}`, tokenId: bigint) {
  const from = privateKeyToAccount(fromKey).address;
  await send(fromKey, { address: contracts.erc721, abi: erc721Abi, functionName: "transferFrom", args: [from, to, tokenId] });
}

export async function erc721Balance(owner: `0x${string}`): Promise<bigint> {
  return chainReader.readContract({ address: contracts.erc721, abi: erc721Abi, functionName: "balanceOf", args: [owner] });
}
