// A wallet used to sign in with Ethereum is a linked wallet of that account, and its ENS name is
// filled in by link-wallet's daily refresh.
import type { EthereumWallet } from "@supabase/supabase-js";
import { type Hex, isHex } from "viem";
import { afterAll, expect, test, vi } from "vitest";
import { avatarUrl, seededWallets } from "../../chain/deployment";
import { anonClient, config } from "../helpers/stack";
import { admin, callLinkWallet, randomWallet, walletsOf } from "../helpers/wallets";

vi.setConfig({ testTimeout: 120_000 });

function injected(account: ReturnType<typeof randomWallet>): EthereumWallet {
  return {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [account.address];
      if (method === "eth_chainId") return "0x1";
      if (method === "personal_sign") {
        const data = String(params?.[0]);
        return account.signMessage({ message: isHex(data) ? { raw: data as Hex } : data });
      }
      throw new Error(`unsupported ${method}`);
    },
  } as unknown as EthereumWallet;
}

const grace = seededWallets.grace;
const created: string[] = [];
afterAll(async () => {
  for (const id of created) await admin.auth.admin.deleteUser(id);
});

test("signing in with a wallet links it to the new account; the refresh looks up its ENS name once, then not again within a day", async () => {
  await admin.from("wallets").delete().eq("address", grace.address.toLowerCase());
  const client = anonClient();
  const { data, error } = await client.auth.signInWithWeb3({
    chain: "ethereum",
    wallet: injected(randomWallet(grace.privateKey)),
    statement: "Sign in to Cuepoint with this wallet.",
    options: { url: "http://localhost:3000/login" },
  });
  expect(error).toBeNull();
  created.push(data.user!.id);

  const { data: own } = await client.from("wallets").select("address, ens_name, ens_checked_at");
  expect(own).toEqual([{ address: grace.address.toLowerCase(), ens_name: null, ens_checked_at: null }]);

  expect(await callLinkWallet(client, { action: "refresh" })).toEqual({ status: 200, body: { refreshed: 1 } });
  const [wallet] = await walletsOf(data.user!.id);
  expect(wallet).toMatchObject({ ens_name: "grace.eth", ens_avatar: avatarUrl("grace.eth", config.apiPort) });
  expect(wallet.ens_checked_at).not.toBeNull();
  expect(await callLinkWallet(client, { action: "refresh" })).toEqual({ status: 200, body: { refreshed: 0 } });
});
