// ENS as chain/deploy.ts deploys it on the stack's local chain, read with thirdweb's own ENS extension — no mocked RPC, no
// mocked resolver: the app's name and avatar lookups work against it unchanged.
// (thirdweb's naming: resolveAddress is name → address, resolveName is address → primary name.)
import { createThirdwebClient, defineChain, getContract, readContract } from "thirdweb";
import { resolveAddress, resolveAvatar, resolveName, resolveText } from "thirdweb/extensions/ens";
import { createTestClient, createWalletClient, http, namehash, parseAbi, toFunctionSelector } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { avatarUrl, contracts, devAccounts, localDeployment, namelessAccount, seededWallets } from "../../chain/deployment";
import { config } from "../helpers/stack";

const deployment = localDeployment(config);
const client = createThirdwebClient({ clientId: "cuepoint-local-tests" });
const resolverChain = defineChain({ id: deployment.chainId, rpc: deployment.rpcUrl });
const ens = { client, resolverChain, resolverAddress: contracts.universalResolver };
const { ada, grace } = seededWallets;

describe("ENS on the local chain, through thirdweb", () => {
  test("a seeded name resolves to its wallet (resolveAddress: name → address)", async () => {
    expect(await resolveAddress({ ...ens, name: "ada.eth" })).toBe(ada.address);
    expect(await resolveAddress({ ...ens, name: "grace.eth" })).toBe(grace.address);
  });

  test("a seeded wallet's primary name is its ENS name (resolveName: address → name)", async () => {
    expect(await resolveName({ ...ens, address: ada.address })).toBe("ada.eth");
    // any letter case of the address finds the same reverse record
    expect(await resolveName({ ...ens, address: grace.address.toLowerCase() as `0x${string}` })).toBe("grace.eth");
  });

  test("a seeded name's avatar is an image the stack serves", async () => {
    const url = await resolveAvatar({ ...ens, name: "ada.eth" });
    expect(url).toBe(avatarUrl("ada.eth", config.apiPort));
    const image = await fetch(url!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/svg+xml");
    expect(await image.text()).toContain('aria-label="ada.eth"');
    expect(await resolveText({ ...ens, name: "grace.eth", key: "avatar" })).toBe(avatarUrl("grace.eth", config.apiPort));
  });

  test("an address without a primary name gets null, so the app falls back to the address", async () => {
    expect(await resolveName({ ...ens, address: namelessAccount.address })).toBeNull();
    // the deployer owns the ENS root but has no primary name either
    expect(await resolveName({ ...ens, address: devAccounts[0].address })).toBeNull();
  });

  test("a text record that was never set is null, and so is an avatar", async () => {
    expect(await resolveText({ ...ens, name: "ada.eth", key: "com.twitter" })).toBeNull();
  });

  test("a name nobody registered fails to resolve instead of pointing anywhere", async () => {
    // the universal resolver's ResolverNotFound(bytes), as its selector in thirdweb's error
    const resolverNotFound = toFunctionSelector("ResolverNotFound(bytes)");
    await expect(resolveAddress({ ...ens, name: "nobody-registered-this.eth" })).rejects.toThrow(resolverNotFound.slice(0, 6));
  });

  test("the public resolver answers the registry's records directly too", async () => {
    const resolver = getContract({ client, chain: resolverChain, address: contracts.publicResolver });
    const addr = await readContract({
      contract: resolver,
      method: "function addr(bytes32 node) view returns (address)",
      params: [namehash("ada.eth")],
    });
    expect(addr).toBe(ada.address);
    const registry = getContract({ client, chain: resolverChain, address: contracts.ensRegistry });
    expect(
      await readContract({
        contract: registry,
        method: "function owner(bytes32 node) view returns (address)",
        params: [namehash("grace.eth")],
      }),
    ).toBe(grace.address);
  });
});

// Changes to the chain here are undone: each test runs inside an Anvil snapshot.
describe("primary names are verified forward", () => {
  const testClient = createTestClient({ mode: "anvil", transport: http(deployment.rpcUrl) });
  let snapshot: `0x${string}`;
  beforeAll(async () => {
    snapshot = await testClient.snapshot();
  });
  afterAll(async () => {
    await testClient.revert({ id: snapshot });
  });

  test("an address claiming a name that points elsewhere is refused, not shown as that name", async () => {
    const impostor = devAccounts[4];
    const wallet = createWalletClient({
      account: privateKeyToAccount(impostor.privateKey),
      chain: {
        id: deployment.chainId,
        name: "local",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [deployment.rpcUrl] } },
      },
      transport: http(deployment.rpcUrl),
    });
    await wallet.writeContract({
      address: contracts.reverseRegistrar,
      abi: parseAbi(["function setName(string name) returns (bytes32)"]),
      functionName: "setName",
      args: ["ada.eth"],
    });
    // thirdweb re-throws the universal resolver's ReverseAddressMismatch(string,bytes) instead of returning the name
    await expect(resolveName({ ...ens, address: impostor.address })).rejects.toMatchObject({
      data: expect.stringMatching(new RegExp(`^${toFunctionSelector("ReverseAddressMismatch(string,bytes)")}`)),
    });
    expect(await resolveName({ ...ens, address: ada.address })).toBe("ada.eth");
  });
});
