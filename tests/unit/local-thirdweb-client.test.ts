// `npm run dev` on a fresh clone: the stack writes .env.local with the local chain deploy script's
// variables (chain/deploy.ts `env`), which include a thirdweb client ID, so wallet sign-in, linking and
// gated rooms are on. The seed's rule itself is unchanged: without an ID or a secret key they are off.
import { expect, test } from "vitest";
import { env, localThirdwebClientId } from "../../chain/deploy.ts";
import { missingCredentialsMessage } from "../../lib/chain/credentials";
import { serverChainCredentials } from "../../lib/chain/server-credentials";

test("a new .env.local turns wallet features on for the local chain", () => {
  const local = env({ rpcUrl: "http://127.0.0.1:8545" });
  expect(local.NEXT_PUBLIC_THIRDWEB_CLIENT_ID).toBe(localThirdwebClientId);
  expect(local.NEXT_PUBLIC_CHAIN_RPC_31337).toBe("http://127.0.0.1:8545");
  expect(serverChainCredentials(local)).toEqual({ ok: true, clientId: localThirdwebClientId });
});

test("without the local variables (a deployment with none set), the seed's rule turns them off with its message", () => {
  expect(serverChainCredentials({})).toEqual({ ok: false, error: missingCredentialsMessage });
});
