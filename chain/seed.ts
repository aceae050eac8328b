// Cuepoint's contracts on a new local chain, and its seed: ENS (registry, reverse registrar, public
// resolver, universal resolver), the three test tokens, an EIP-1271 smart account; then the demo
// wallets' names, primary names, avatars and token balances. Same transactions in the same order
// every time, so the same addresses (deployment.ts lists them; this checks each one). Run through
// deploy.ts, the deploy script the stack runs.
import { createPublicClient, createWalletClient, http, labelhash, namehash, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ContractName, readArtifacts } from "./compile.ts";
import {
  avatarUrl,
  chainId,
  contracts,
  deployer,
  erc1155SeedId,
  seededWallets,
  smartAccountOwner,
  type ContractKey,
  type DevAccount,
} from "./deployment.ts";

const localChain = {
  id: chainId,
  name: "Local chain",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [] as string[] } },
} as const;

/** Deployment order: nonce n of the deployer creates the n-th contract. */
const deployOrder: [ContractKey, ContractName, (deployed: Record<string, Address>) => unknown[]][] = [
  ["ensRegistry", "ENSRegistry", () => []],
  ["reverseRegistrar", "ReverseRegistrar", (d) => [d.ensRegistry]],
  ["publicResolver", "PublicResolver", (d) => [d.ensRegistry, d.reverseRegistrar]],
  ["universalResolver", "UniversalResolver", (d) => [d.ensRegistry]],
  ["erc20", "CuepointToken", () => []],
  ["erc721", "CuepointPass", () => []],
  ["erc1155", "CuepointItems", () => []],
  ["smartAccount", "CuepointSmartAccount", () => [smartAccountOwner.address]],
];

/**
 * Sends each account's transactions with its own nonce count, a fixed gas limit and fee, so a
 * transaction is one signature and one eth_sendRawTransaction: no estimates, no fee look-ups.
 * Anvil mines each transaction as it arrives, so its receipt is there at once.
 */
function clients(rpcUrl: string) {
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain: localChain, transport, pollingInterval: 50 });
  const nonces = new Map<string, number>();
  const wallets = new Map<string, ReturnType<typeof walletClient>>();
  const walletClient = (account: DevAccount) =>
    createWalletClient({ account: privateKeyToAccount(account.privateKey), chain: localChain, transport });
  const walletFor = (account: DevAccount) => {
    if (!wallets.has(account.address)) wallets.set(account.address, walletClient(account));
    return wallets.get(account.address)!;
  };
  const txFields = async (account: DevAccount) => {
    const nonce =
      nonces.get(account.address) ?? (await publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }));
    nonces.set(account.address, nonce + 1);
    return { nonce, gas: 6_000_000n, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
  };
  const receipt = async (hash: Hex) =>
    (await publicClient.getTransactionReceipt({ hash }).catch(() => undefined)) ?? (await publicClient.waitForTransactionReceipt({ hash }));
  return { publicClient, walletFor, txFields, receipt };
}

/** Deploys and seeds a new chain; fails if an address differs from deployment.ts's. */
export async function deployAndSeed(rpcUrl: string, apiPort: number): Promise<void> {
  const artifacts = readArtifacts().contracts;
  const abi = (name: ContractName) => artifacts[name].abi as Abi;
  const { publicClient, walletFor, txFields, receipt: receiptOf } = clients(rpcUrl);
  const owner = walletFor(deployer);

  const nonce = await publicClient.getTransactionCount({ address: deployer.address });
  if (nonce !== 0)
    throw new Error(
      `The local chain has transactions (the deployer sent ${nonce}) but not Cuepoint's contracts: run \`npm run stack -- reset\``,
    );

  const deployed: Record<string, Address> = {};
  for (const [key, name, args] of deployOrder) {
    const hash = await owner.deployContract({
      abi: abi(name),
      bytecode: artifacts[name].bytecode,
      args: args(deployed),
      ...(await txFields(deployer)),
    });
    const receipt = await receiptOf(hash);
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`Deploying ${name} failed (transaction ${hash})`);
    if (receipt.contractAddress.toLowerCase() !== contracts[key].toLowerCase()) {
      throw new Error(`${name} was deployed at ${receipt.contractAddress}, not at ${contracts[key]} as chain/deployment.ts says`);
    }
    deployed[key] = receipt.contractAddress;
  }

  const send = async (account: DevAccount, contract: ContractKey, name: ContractName, functionName: string, args: unknown[]) => {
    const hash = await walletFor(account).writeContract({
      address: contracts[contract],
      abi: abi(name),
      functionName,
      args,
      ...(await txFields(account)),
    });
    const receipt = await receiptOf(hash);
    if (receipt.status !== "success") throw new Error(`${name}.${functionName} failed (transaction ${hash})`);
  };

  // ENS: the deployer owns the root and `eth`; the reverse registrar owns addr.reverse.
  await send(deployer, "reverseRegistrar", "ReverseRegistrar", "setDefaultResolver", [contracts.publicResolver]);
  await send(deployer, "ensRegistry", "ENSRegistry", "setSubnodeOwner", [namehash(""), labelhash("reverse"), deployer.address]);
  await send(deployer, "ensRegistry", "ENSRegistry", "setSubnodeOwner", [
    namehash("reverse"),
    labelhash("addr"),
    contracts.reverseRegistrar,
  ]);
  await send(deployer, "ensRegistry", "ENSRegistry", "setSubnodeOwner", [namehash(""), labelhash("eth"), deployer.address]);

  for (const wallet of Object.values(seededWallets)) {
    const [label] = wallet.ensName.split(".");
    const node = namehash(wallet.ensName);
    await send(deployer, "ensRegistry", "ENSRegistry", "setSubnodeRecord", [
      namehash("eth"),
      labelhash(label),
      deployer.address,
      contracts.publicResolver,
      0n,
    ]);
    await send(deployer, "publicResolver", "PublicResolver", "setAddr", [node, wallet.address]);
    await send(deployer, "publicResolver", "PublicResolver", "setText", [node, "avatar", avatarUrl(wallet.ensName, apiPort)]);
    // the name is the wallet's from here on; its primary name is its own transaction
    await send(deployer, "ensRegistry", "ENSRegistry", "setOwner", [node, wallet.address]);
    await send(wallet, "reverseRegistrar", "ReverseRegistrar", "setName", [wallet.ensName]);

    if (wallet.holdings.erc20 > 0n) await send(deployer, "erc20", "CuepointToken", "mint", [wallet.address, wallet.holdings.erc20]);
    for (const tokenId of wallet.holdings.erc721TokenIds) await send(deployer, "erc721", "CuepointPass", "mint", [wallet.address, tokenId]);
    if (wallet.holdings.erc1155 > 0n)
      await send(deployer, "erc1155", "CuepointItems", "mint", [wallet.address, erc1155SeedId, wallet.holdings.erc1155]);
  }
}

/**
 * Points the seeded names' `avatar` records at this stack's API port (a chain kept from a stack
 * that ran on another port still has the old URLs). Each name's owner signs its own change.
 */
export async function refreshAvatars(rpcUrl: string, apiPort: number): Promise<void> {
  const artifacts = readArtifacts().contracts;
  const { walletFor, txFields, receipt: receiptOf } = clients(rpcUrl);
  for (const wallet of Object.values(seededWallets)) {
    const hash: Hex = await walletFor(wallet).writeContract({
      address: contracts.publicResolver,
      abi: artifacts.PublicResolver.abi as Abi,
      functionName: "setText",
      args: [namehash(wallet.ensName), "avatar", avatarUrl(wallet.ensName, apiPort)],
      ...(await txFields(wallet)),
    });
    const receipt = await receiptOf(hash);
    if (receipt.status !== "success") throw new Error(`Updating ${wallet.ensName}'s avatar record failed (transaction ${hash})`);
  }
}
