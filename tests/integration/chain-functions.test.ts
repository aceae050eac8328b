// Edge Functions reach the local chain: the stack gives every Deno function the variables
// chain/deploy.ts names (CHAIN_RPC_31337, ENS_CHAIN_ID and ENS_UNIVERSAL_RESOLVER, without the
// NEXT_PUBLIC_ copies), and the function's own JSON-RPC calls get answers.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contracts, localDeployment } from "../../chain/deployment";
import { supabaseDir } from "@cuepoint/stack/paths";
import { anonClient, config } from "../helpers/stack";

const name = `fx-chain-${process.pid}-${Date.now().toString(36)}`;
const dir = path.join(supabaseDir, "functions", name);
const source = `
  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(Deno.env.get("CHAIN_RPC_31337")!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await response.json()).result;
  };
  Deno.serve(async () => {
    const env = Object.fromEntries(["CHAIN_RPC_31337", "ENS_CHAIN_ID", "ENS_UNIVERSAL_RESOLVER", "NEXT_PUBLIC_CHAIN_RPC_31337"].map((n) => [n, Deno.env.get(n) ?? null]));
    const chainId = await rpc("eth_chainId", []);
    const code = await rpc("eth_getCode", [Deno.env.get("ENS_UNIVERSAL_RESOLVER"), "latest"]);
    return Response.json({ env, chainId, hasResolverCode: typeof code === "string" && code.length > 2 });
  });`;

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "index.ts"), source);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a function on the running stack", { timeout: 120_000 }, () => {
  test("sees where the chain and the ENS universal resolver are, and reaches them", async () => {
    const { data, error } = await anonClient().functions.invoke(name, { body: {} });
    expect(error).toBeNull();
    expect(data).toEqual({
      env: {
        CHAIN_RPC_31337: localDeployment(config).rpcUrl,
        ENS_CHAIN_ID: "31337",
        ENS_UNIVERSAL_RESOLVER: contracts.universalResolver,
        NEXT_PUBLIC_CHAIN_RPC_31337: null,
      },
      chainId: "0x7a69",
      hasResolverCode: true,
    });
  });
});
