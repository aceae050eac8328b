// When the ENS chain's RPC does not answer, link-wallet links nothing and says why. The project's
// own link-wallet function runs in a private Functions endpoint (same database) whose chain RPC
// points at a port nobody listens on; the stack's chain keeps running for others.
import net, { type AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { serveFunctions, type StandaloneFunctions } from "@cuepoint/stack/functions";
import { anonKey, config } from "../helpers/stack";
import { admin, callLinkWallet, linkMessage, randomWallet, signedInUser, walletsOf } from "../helpers/wallets";

vi.setConfig({ testTimeout: 120_000 });

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let functions: StandaloneFunctions;
let user: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  const deadRpc = `http://127.0.0.1:${await closedPort()}`;
  functions = await serveFunctions(config, { CHAIN_RPC_31337: deadRpc });
  user = await signedInUser("outage");
}, 120_000);

afterAll(async () => {
  await functions?.close();
  if (user) await admin.auth.admin.deleteUser(user.id);
});

test("the ENS chain's RPC unreachable: a correctly signed message links nothing, and the error names the chain", async () => {
  const token = (await user.client.auth.getSession()).data.session!.access_token;
  const outage = createClient(functions.url, anonKey, { accessToken: async () => token });
  const nonce = await callLinkWallet(outage, { action: "nonce" });
  expect(nonce.status).toBe(200);
  const wallet = randomWallet();
  const message = linkMessage(nonce.body.nonce!, wallet.address);
  const answer = await callLinkWallet(outage, { message, signature: await wallet.signMessage({ message }) });
  expect(answer).toEqual({
    status: 503,
    body: {
      code: "chain_unreachable",
      error: "We couldn't reach Local chain to look up this wallet's ENS name, so the wallet was not linked. Try again in a minute.",
    },
  });
  expect(await walletsOf(user.id)).toEqual([]);
});
