// `npm run bench:chain`: Cuepoint's deployment on the running stack's local chain (chain/deploy.ts):
// how long the ENS lookups the app makes take, as raw eth_calls to the universal resolver
// (thirdweb's resolveName/resolveAddress make exactly these, behind a cache of their own), and an
// ERC-20 balance read, each 200 times in a row.
import { createPublicClient, erc20Abi, http, namehash, parseAbi, toHex, type Abi } from "viem";
import { packetToBytes } from "viem/ens";
import { loadConfig } from "@cuepoint/stack";
import { contracts, localDeployment, seededWallets } from "../chain/deployment.ts";

const deployment = localDeployment(loadConfig());
const chain = {
  id: deployment.chainId,
  name: "local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [deployment.rpcUrl] } },
} as const;
const client = createPublicClient({ chain, transport: http(deployment.rpcUrl) });
const universalResolver = parseAbi([
  "function reverse(bytes lookupAddress, uint256 coinType) view returns (string, address, address)",
  "function resolve(bytes name, bytes data) view returns (bytes, address)",
]) as Abi;
const addrCall = (name: string) => `0x3b3b57de${namehash(name).slice(2)}` as const;
const { ada } = seededWallets;

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

await measure("primary name (universal resolver reverse, verified forward)", () =>
  client.readContract({ address: contracts.universalResolver, abi: universalResolver, functionName: "reverse", args: [ada.address, 60n] }),
);
await measure("name → address (universal resolver resolve, addr)", () =>
  client.readContract({
    address: contracts.universalResolver,
    abi: universalResolver,
    functionName: "resolve",
    args: [toHex(packetToBytes("ada.eth")), addrCall("ada.eth")],
  }),
);
await measure("ERC-20 balanceOf", () =>
  client.readContract({ address: contracts.erc20, abi: erc20Abi, functionName: "balanceOf", args: [ada.address] }),
);
