// Cuepoint's deployment on the local chain, for its deploy script (deploy.ts), tests and e2e: where
// the chain is, the addresses of its contracts (the same on every new chain: one deployer, a fixed
// order, nonces 0–7), Anvil's well-known dev accounts and what the seed gave each of them.
//
// Anvil's dev accounts come from the public mnemonic "test test … junk": never use them anywhere
// but a local chain.

/** Anvil's chain id, which the stack's local chain keeps. */
export const chainId = 31337;

/** The chain's port is the stack config's `chainPort` (STACK_CHAIN_PORT, else 8545). */
export function chainRpcUrl(chainPort: number): string {
  return `http://127.0.0.1:${chainPort}`;
}

/** Contract addresses: CREATE addresses of the deployer's nonces 0–7, in deployment order. */
export const contracts = {
  ensRegistry: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  reverseRegistrar: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  publicResolver: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  universalResolver: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
  /** ERC-20 "Cuepoint Token" (CUE), 18 decimals. */
  erc20: "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9",
  /** ERC-721 "Cuepoint Backstage Pass" (CUEPASS). */
  erc721: "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
  /** ERC-1155 "Cuepoint Items". */
  erc1155: "0x0165878A594ca255338adfa4d48449f69242Eb8F",
  /** An EIP-1271 smart account (a contract wallet) whose owner is `smartAccountOwner`; no ENS name. */
  smartAccount: "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853",
} as const satisfies Record<string, `0x${string}`>;

export type ContractKey = keyof typeof contracts;

export interface DevAccount {
  index: number;
  address: `0x${string}`;
  privateKey: `0x${string}`;
}

/** The first five of Anvil's dev accounts (each starts with 10 000 ETH). */
export const devAccounts = [
  {
    index: 0,
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  },
  {
    index: 1,
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  },
  {
    index: 2,
    address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  },
  {
    index: 3,
    address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    privateKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  },
  {
    index: 4,
    address: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    privateKey: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  },
] as const satisfies readonly DevAccount[];

/** Deploys every contract, owns the ENS root and `eth`, mints the tokens. Has no ENS name. */
export const deployer: DevAccount = devAccounts[0];

/** The ERC-1155 id the seed mints. */
export const erc1155SeedId = 1n;

export interface SeededWallet extends DevAccount {
  /** The demo account (supabase/seed.sql) this wallet belongs to. */
  email: string;
  username: string;
  /** Its ENS name: forward `addr` record, primary (reverse) record and `avatar` text record. */
  ensName: string;
  holdings: { erc20: bigint; erc721TokenIds: readonly bigint[]; erc1155: bigint };
}

/** The demo accounts' wallets. Linking them to the accounts is the app's job (by signature). */
export const seededWallets = {
  ada: {
    ...devAccounts[1],
    email: "ada@cuepoint.test",
    username: "ada",
    ensName: "ada.eth",
    holdings: { erc20: 1000n * 10n ** 18n, erc721TokenIds: [1n], erc1155: 3n },
  },
  grace: {
    ...devAccounts[2],
    email: "grace@cuepoint.test",
    username: "grace",
    ensName: "grace.eth",
    holdings: { erc20: 5n * 10n ** 18n, erc721TokenIds: [], erc1155: 0n },
  },
} as const satisfies Record<string, SeededWallet>;

/** A funded dev account with no ENS name and no tokens: lookups of it fall back to the address. */
export const namelessAccount: DevAccount = devAccounts[3];

/** Signs for `contracts.smartAccount` (its signatures over a message are the account's). */
export const smartAccountOwner: DevAccount = devAccounts[4];

/** The URL of a name's avatar image, served by the stack's API (GET /chain/v1/avatars/<name>.svg). */
export function avatarUrl(name: string, apiPort: number): string {
  return `http://127.0.0.1:${apiPort}/chain/v1/avatars/${name}.svg`;
}

/**
 * The variables the app and the edge functions read to reach the local chain and its ENS
 * deployment; `NEXT_PUBLIC_` twins for the browser.
 */
export function chainEnv(rpc: string): Record<string, string> {
  return {
    CHAIN_RPC_31337: rpc,
    ENS_CHAIN_ID: String(chainId),
    ENS_UNIVERSAL_RESOLVER: contracts.universalResolver,
    NEXT_PUBLIC_CHAIN_RPC_31337: rpc,
    NEXT_PUBLIC_ENS_CHAIN_ID: String(chainId),
    NEXT_PUBLIC_ENS_UNIVERSAL_RESOLVER: contracts.universalResolver,
  };
}

/** Everything above for one stack, by its ports (a stack config's `chainPort` and `apiPort`). */
export function localDeployment(ports: { chainPort: number; apiPort: number }) {
  return {
    chainId,
    rpcUrl: chainRpcUrl(ports.chainPort),
    contracts,
    deployer,
    devAccounts,
    seededWallets,
    namelessAccount,
    smartAccount: { address: contracts.smartAccount, owner: smartAccountOwner },
    names: Object.values(seededWallets).map((wallet) => ({
      name: wallet.ensName,
      address: wallet.address,
      avatar: avatarUrl(wallet.ensName, ports.apiPort),
    })),
  };
}
