// Checking a gate's token contract on chain before it is saved (lib/chain/tokens.ts), against the
// running stack's local chain: real thirdweb reads of the deployed test tokens.
import net, { type AddressInfo } from "node:net";
import { describe, expect, test, vi } from "vitest";
import { chainEnv, chainRpcUrl, contracts, devAccounts } from "../../chain/deployment";
import { describeGateToken, gateRequirementText, prepareGate } from "../../lib/chain/tokens";
import { gateInputSchema, roomMessages } from "../../lib/validation/room";
import { config } from "../helpers/stack";

vi.setConfig({ testTimeout: 60_000 });

const env = { ...chainEnv(chainRpcUrl(config.chainPort)), NEXT_PUBLIC_THIRDWEB_CLIENT_ID: "cuepoint-local-tests" };
const local = { chainId: 31337, contractAddress: contracts.erc20.toLowerCase() as `0x${string}` };

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("a token that answers as its standard", () => {
  test("ERC-20: name, symbol, decimals and the label to confirm", async () => {
    expect(await describeGateToken({ ...local, standard: "erc20" }, { env })).toEqual({
      ok: true,
      data: {
        name: "Cuepoint Token",
        symbol: "CUE",
        decimals: 18,
        chainName: "Local chain",
        label: "Token: Cuepoint Token (CUE) on Local chain",
      },
    });
  });

  test("ERC-721, by ERC-165", async () => {
    expect(
      await describeGateToken(
        { chainId: 31337, contractAddress: contracts.erc721.toLowerCase() as `0x${string}`, standard: "erc721" },
        { env },
      ),
    ).toEqual({
      ok: true,
      data: {
        name: "Cuepoint Backstage Pass",
        symbol: "CUEPASS",
        decimals: 0,
        chainName: "Local chain",
        label: "Token: Cuepoint Backstage Pass (CUEPASS) on Local chain",
      },
    });
  });

  test("ERC-1155, by ERC-165; it has no name, so the label shows its address", async () => {
    expect(
      await describeGateToken(
        { chainId: 31337, contractAddress: contracts.erc1155.toLowerCase() as `0x${string}`, standard: "erc1155" },
        { env },
      ),
    ).toEqual({
      ok: true,
      data: { name: null, symbol: null, decimals: 0, chainName: "Local chain", label: "Token: 0x0165…Eb8F on Local chain" },
    });
  });

  test("a form's ERC-20 gate in whole tokens is saved in smallest units, with the decimals read on chain", async () => {
    const gate = gateInputSchema.parse({
      chainId: "31337",
      contractAddress: contracts.erc20,
      standard: "erc20",
      tokenId: "",
      minBalance: "5",
    });
    const prepared = await prepareGate(gate, { env });
    expect(prepared).toMatchObject({
      ok: true,
      data: {
        record: {
          chain_id: 31337,
          contract_address: contracts.erc20.toLowerCase(),
          standard: "erc20",
          token_id: null,
          min_balance: "5000000000000000000",
        },
        token: { symbol: "CUE" },
      },
    });
  });

  test("a saved gate reads in human units", async () => {
    const gate = {
      chain_id: 31337,
      contract_address: contracts.erc20.toLowerCase(),
      standard: "erc20" as const,
      token_id: null,
      min_balance: "1000000000000000000",
    };
    expect(await gateRequirementText(gate, { env })).toMatchObject({ ok: true, data: { text: "At least 1 CUE on Local chain" } });
    expect(
      await gateRequirementText(
        { ...gate, contract_address: contracts.erc1155.toLowerCase(), standard: "erc1155", token_id: "1", min_balance: "3" },
        { env },
      ),
    ).toMatchObject({
      ok: true,
      data: { text: "At least 3 of token #1 of 0x0165…Eb8F on Local chain" },
    });
  });
});

describe("a gate that is wrong: an error for the field at fault", () => {
  test("an address with no contract (a person's wallet)", async () => {
    expect(
      await describeGateToken(
        { chainId: 31337, contractAddress: devAccounts[3].address.toLowerCase() as `0x${string}`, standard: "erc20" },
        { env },
      ),
    ).toEqual({
      ok: false,
      error: { field: "contractAddress", code: "no_contract", message: "There is no contract at 0x90F7…b906 on Local chain" },
    });
  });

  test("the ERC-20 chosen as an ERC-721", async () => {
    expect(await describeGateToken({ ...local, standard: "erc721" }, { env })).toEqual({
      ok: false,
      error: {
        field: "standard",
        code: "wrong_standard",
        message: "The contract at 0xDc64…F6C9 on Local chain is an ERC-20 token, not an ERC-721 — choose ERC-20",
      },
    });
  });

  test("a contract that is no token at all (the ENS registry)", async () => {
    expect(
      await describeGateToken(
        { chainId: 31337, contractAddress: contracts.ensRegistry.toLowerCase() as `0x${string}`, standard: "erc1155" },
        { env },
      ),
    ).toEqual({
      ok: false,
      error: {
        field: "standard",
        code: "wrong_standard",
        message: "The contract at 0x5FbD…0aa3 on Local chain doesn't answer as an ERC-1155 token — check the address and the standard",
      },
    });
  });

  test("the ERC-721 chosen as an ERC-20, and as an ERC-1155", async () => {
    const pass = { chainId: 31337, contractAddress: contracts.erc721.toLowerCase() as `0x${string}` };
    expect(await describeGateToken({ ...pass, standard: "erc20" }, { env })).toMatchObject({
      ok: false,
      error: { field: "standard", code: "wrong_standard", message: expect.stringContaining("is an ERC-721 token, not an ERC-20") },
    });
    expect(await describeGateToken({ ...pass, standard: "erc1155" }, { env })).toMatchObject({
      ok: false,
      error: { field: "standard", code: "wrong_standard", message: expect.stringContaining("is an ERC-721 token, not an ERC-1155") },
    });
  });

  test("a chain this site does not read: the local chain without its RPC configured, or a chain id outside the list", async () => {
    const withoutLocal = { NEXT_PUBLIC_THIRDWEB_CLIENT_ID: "cuepoint-local-tests" };
    expect(await describeGateToken({ ...local, standard: "erc20" }, { env: withoutLocal })).toEqual({
      ok: false,
      error: { field: "chainId", code: "unsupported_chain", message: roomMessages.chainUnsupported },
    });
    expect(await describeGateToken({ ...local, chainId: 56, standard: "erc20" }, { env })).toMatchObject({
      ok: false,
      error: { field: "chainId", code: "unsupported_chain" },
    });
  });

  test("no thirdweb credentials: the seed's message", async () => {
    expect(await describeGateToken({ ...local, standard: "erc20" }, { env: chainEnv(chainRpcUrl(config.chainPort)) })).toEqual({
      ok: false,
      error: { field: "chainId", code: "chain_unavailable", message: "clientId or secretKey must be provided" },
    });
  });

  test("the chain's RPC unreachable: a clear error for the chain, never a crash", async () => {
    const down = { ...env, CHAIN_RPC_31337: `http://127.0.0.1:${await closedPort()}` };
    expect(await describeGateToken({ ...local, standard: "erc20" }, { env: down })).toEqual({
      ok: false,
      error: {
        field: "chainId",
        code: "chain_unreachable",
        message: "We couldn't reach Local chain to check this token. Try again in a minute.",
      },
    });
  });

  test("an RPC that accepts the connection but never answers times out with the same error", async () => {
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => held.add(socket)); // holds every connection open, answers nothing
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const down = { ...env, CHAIN_RPC_31337: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` };
      expect(await describeGateToken({ ...local, standard: "erc20" }, { env: down, timeoutMs: 500 })).toMatchObject({
        ok: false,
        error: { field: "chainId", code: "chain_unreachable" },
      });
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  test("a minimum past uint256 once scaled by the decimals is an error for the minimum balance", async () => {
    const gate = gateInputSchema.parse({
      chainId: 31337,
      contractAddress: contracts.erc20,
      standard: "erc20",
      minBalance: "1" + "0".repeat(70),
    });
    expect(await prepareGate(gate, { env })).toEqual({
      ok: false,
      error: { field: "minBalance", code: "amount_too_large", message: roomMessages.minBalanceTooLarge },
    });
  });
});
