// The local chain against the running stack: how long JSON-RPC round trips to Anvil take (the
// transport every chain read of an app pays), each 200 times in a row. Whatever the project's
// deploy script put on the chain is not needed: these read the chain itself.
import { chainRpcUrl, rpc } from "../lib/chain.ts";
import { loadConfig } from "../lib/config.ts";

const rpcUrl = chainRpcUrl(loadConfig());
// Anvil's first dev account, funded on every new chain.
const devAccount = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

async function measure(what: string, call: () => Promise<unknown>, runs = 200): Promise<void> {
  await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await call();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`  ${what}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (${runs} calls)`);
}

await measure("eth_blockNumber", () => rpc(rpcUrl, "eth_blockNumber"));
await measure("eth_getBalance (a dev account)", () => rpc(rpcUrl, "eth_getBalance", [devAccount, "latest"]));
await measure("eth_call (a value transfer, simulated)", () =>
  rpc(rpcUrl, "eth_call", [{ from: devAccount, to: devAccount, value: "0x1" }, "latest"]),
);
