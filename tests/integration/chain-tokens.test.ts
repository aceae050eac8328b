// Cuepoint's test tokens, seed and smart account (chain/deploy.ts), read over JSON-RPC from the running stack's Anvil.
import { createThirdwebClient, defineChain } from "thirdweb";
import { verifySignature } from "thirdweb/auth";
import { privateKeyToAccount } from "viem/accounts";
import { createPublicClient, erc20Abi, erc721Abi, http, parseAbi } from "viem";
import { describe, expect, test } from "vitest";
import {
  contracts,
  deployer,
  devAccounts,
  erc1155SeedId,
  localDeployment,
  namelessAccount,
  seededWallets,
  smartAccountOwner,
} from "../../chain/deployment";
import { config } from "../helpers/stack";

const deployment = localDeployment(config);
const chain = {
  id: deployment.chainId,
  name: "local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [deployment.rpcUrl] } },
} as const;
const client = createPublicClient({ chain, transport: http(deployment.rpcUrl) });
const erc1155Abi = parseAbi([
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
]);
const { ada, grace } = seededWallets;

describe("the local chain", () => {
  test("is chain 31337 with Anvil's funded dev accounts", async () => {
    expect(await client.getChainId()).toBe(31337);
    for (const account of devAccounts) expect(await client.getBalance({ address: account.address })).toBeGreaterThan(1000n * 10n ** 18n);
  });

  test("has every contract of the deployment at its listed address", async () => {
    for (const [name, address] of Object.entries(contracts)) {
      expect(await client.getCode({ address }), name).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });
});

describe("test tokens", () => {
  test("the ERC-20 is Cuepoint Token (CUE) with 18 decimals", async () => {
    const read = (functionName: "name" | "symbol" | "decimals") =>
      client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName });
    expect(await read("name")).toBe("Cuepoint Token");
    expect(await read("symbol")).toBe("CUE");
    expect(await read("decimals")).toBe(18);
  });

  test("the ERC-721 and ERC-1155 answer their standard interfaces", async () => {
    expect(await client.readContract({ address: contracts.erc721, abi: erc721Abi, functionName: "name" })).toBe("Cuepoint Backstage Pass");
    expect(await client.readContract({ address: contracts.erc721, abi: erc721Abi, functionName: "symbol" })).toBe("CUEPASS");
    expect(
      await client.readContract({ address: contracts.erc721, abi: erc1155Abi, functionName: "supportsInterface", args: ["0x80ac58cd"] }),
    ).toBe(true);
    expect(
      await client.readContract({ address: contracts.erc1155, abi: erc1155Abi, functionName: "supportsInterface", args: ["0xd9b67a26"] }),
    ).toBe(true);
  });

  test("ada holds all three tokens, as the seed says", async () => {
    expect(await client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName: "balanceOf", args: [ada.address] })).toBe(
      ada.holdings.erc20,
    );
    expect(await client.readContract({ address: contracts.erc721, abi: erc721Abi, functionName: "balanceOf", args: [ada.address] })).toBe(
      1n,
    );
    expect(
      await client.readContract({
        address: contracts.erc721,
        abi: erc721Abi,
        functionName: "ownerOf",
        args: [ada.holdings.erc721TokenIds[0]],
      }),
    ).toBe(ada.address);
    expect(
      await client.readContract({
        address: contracts.erc1155,
        abi: erc1155Abi,
        functionName: "balanceOf",
        args: [ada.address, erc1155SeedId],
      }),
    ).toBe(ada.holdings.erc1155);
  });

  test("grace holds 5 CUE and neither the pass nor the item; the nameless account holds nothing", async () => {
    expect(await client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName: "balanceOf", args: [grace.address] })).toBe(
      5n * 10n ** 18n,
    );
    expect(await client.readContract({ address: contracts.erc721, abi: erc721Abi, functionName: "balanceOf", args: [grace.address] })).toBe(
      0n,
    );
    expect(
      await client.readContract({
        address: contracts.erc1155,
        abi: erc1155Abi,
        functionName: "balanceOf",
        args: [grace.address, erc1155SeedId],
      }),
    ).toBe(0n);
    expect(
      await client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName: "balanceOf", args: [namelessAccount.address] }),
    ).toBe(0n);
  });

  test("only the deployer mints: another account's mint reverts", async () => {
    const mintAbi = parseAbi(["function mint(address to, uint256 amount)"]);
    await expect(
      client.simulateContract({
        account: grace.address,
        address: contracts.erc20,
        abi: mintAbi,
        functionName: "mint",
        args: [grace.address, 1n],
      }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount|reverted/);
    const simulated = await client.simulateContract({
      account: deployer.address,
      address: contracts.erc20,
      abi: mintAbi,
      functionName: "mint",
      args: [grace.address, 1n],
    });
    expect(simulated.request.functionName).toBe("mint");
  });
});

describe("the EIP-1271 smart account", () => {
  const thirdweb = createThirdwebClient({ clientId: "cuepoint-local-tests" });
  const thirdwebChain = defineChain({ id: deployment.chainId, rpc: deployment.rpcUrl });
  const message = "Cuepoint wants you to sign in with your Ethereum account";

  test("accepts its owner's signature as the account's, verified on chain through thirdweb", async () => {
    const signature = await privateKeyToAccount(smartAccountOwner.privateKey).signMessage({ message });
    expect(await verifySignature({ message, signature, address: contracts.smartAccount, chain: thirdwebChain, client: thirdweb })).toBe(
      true,
    );
  });

  test("refuses a signature by any other key", async () => {
    const signature = await privateKeyToAccount(ada.privateKey).signMessage({ message });
    expect(await verifySignature({ message, signature, address: contracts.smartAccount, chain: thirdwebChain, client: thirdweb })).toBe(
      false,
    );
  });
});
