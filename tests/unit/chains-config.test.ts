import { describe, expect, test } from "vitest";
import { chainConfig, chainNames, findChain } from "../../lib/chain/chains";
import { serverChainConfig } from "../../lib/chain/config";

const read = (values: Record<string, string>) => (name: string) => values[name];

describe("supported chains", () => {
  test("Ethereum, Base, Optimism, Arbitrum and Polygon, on thirdweb's RPCs unless overridden; ENS on Ethereum with thirdweb's defaults", () => {
    const config = chainConfig(read({}));
    expect(config.chains.map((chain) => [chain.id, chain.name, chain.rpc])).toEqual([
      [1, "Ethereum", undefined],
      [8453, "Base", undefined],
      [10, "Optimism", undefined],
      [42161, "Arbitrum", undefined],
      [137, "Polygon", undefined],
    ]);
    expect(config.ens).toEqual({ chain: { id: 1, name: "Ethereum", rpc: undefined }, universalResolver: undefined });
    expect(chainNames(config)).toBe("Ethereum, Base, Optimism, Arbitrum or Polygon");
  });

  test("each chain's RPC is overridable; the local chain exists only when its RPC is configured; ENS follows ENS_CHAIN_ID and ENS_UNIVERSAL_RESOLVER", () => {
    const config = chainConfig(
      read({
        CHAIN_RPC_8453: "https://base.example/rpc",
        CHAIN_RPC_31337: "http://127.0.0.1:8545",
        ENS_CHAIN_ID: "31337",
        ENS_UNIVERSAL_RESOLVER: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
      }),
    );
    expect(findChain(config, 8453)?.rpc).toBe("https://base.example/rpc");
    expect(findChain(config, 31337)).toEqual({ id: 31337, name: "Local chain", rpc: "http://127.0.0.1:8545" });
    expect(config.ens).toEqual({
      chain: { id: 31337, name: "Local chain", rpc: "http://127.0.0.1:8545" },
      universalResolver: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
    });
  });

  test("bad values are ignored rather than used: a non-http RPC, an ENS chain that is not supported, a malformed resolver", () => {
    const config = chainConfig(
      read({ CHAIN_RPC_1: "ftp://nope", CHAIN_RPC_31337: "not a url", ENS_CHAIN_ID: "31337", ENS_UNIVERSAL_RESOLVER: "0x123" }),
    );
    expect(findChain(config, 1)?.rpc).toBeUndefined();
    expect(findChain(config, 31337)).toBeUndefined();
    expect(config.ens).toEqual({ chain: { id: 1, name: "Ethereum", rpc: undefined }, universalResolver: undefined });
  });

  test("the server reads unprefixed variables first, then the NEXT_PUBLIC_ twins", () => {
    const config = serverChainConfig({
      NEXT_PUBLIC_CHAIN_RPC_31337: "http://127.0.0.1:1",
      CHAIN_RPC_10: "https://op.example",
      NEXT_PUBLIC_CHAIN_RPC_10: "https://public-op.example",
    });
    expect(findChain(config, 31337)?.rpc).toBe("http://127.0.0.1:1");
    expect(findChain(config, 10)?.rpc).toBe("https://op.example");
  });
});
