// Server-only: what a gate's token contract is, read on chain through thirdweb before a gate is
// saved ("Token: Cuepoint Token (CUE) on Base"), and how a saved gate reads to people ("At least
// 1 CUE on Base", amounts in human units with the decimals read on chain). Every failure is a
// typed error for the form field it belongs to; an RPC that does not answer is never mistaken for
// "not a contract" or "wrong standard".
import type { ThirdwebClient } from "thirdweb";
import type { Chain } from "thirdweb/chains";
import type { Result } from "../result.ts";
import { requirementText } from "../rooms/gate-text.ts";
import { type GateInput, gateRecord, type RoomGateRecord, roomMessages } from "../validation/room.ts";
import { shortChecksummedAddress } from "./address.ts";
import { findChain, type SupportedChain } from "./chains.ts";
import { serverChainConfig } from "./config.ts";

/**
 * thirdweb (thousands of modules) loads on the first chain read, not with the pages that import
 * this module (a room, its settings, a new room): `next dev` then compiles it on first use instead
 * of with each of those routes.
 */
async function loadSdk() {
  const [core, chains, rpc, server] = await Promise.all([
    import("thirdweb"),
    import("thirdweb/chains"),
    import("thirdweb/rpc"),
    import("./server.ts"),
  ]);
  return {
    getContract: core.getContract,
    readContract: core.readContract,
    defineChain: chains.defineChain,
    eth_blockNumber: rpc.eth_blockNumber,
    eth_getCode: rpc.eth_getCode,
    getRpcClient: rpc.getRpcClient,
    serverThirdwebClient: server.serverThirdwebClient,
  };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

export type GateField = "chainId" | "contractAddress" | "standard" | "tokenId" | "minBalance";

export type GateTokenErrorCode =
  "unsupported_chain" | "chain_unavailable" | "chain_unreachable" | "no_contract" | "wrong_standard" | "amount_too_large";

export interface GateTokenError {
  /** The form field to show the message next to. */
  field: GateField;
  code: GateTokenErrorCode;
  message: string;
}

export interface GateToken {
  /** What the contract calls itself; null when it does not say (common for ERC-1155). */
  name: string | null;
  symbol: string | null;
  /** ERC-20: as read on chain; ERC-721 and ERC-1155 count whole tokens: 0. */
  decimals: number;
  chainName: string;
  /** "Token: Cuepoint Token (CUE) on Local chain", for the person to confirm before saving. */
  label: string;
}

export type TokenResult<T> = Result<T, GateTokenError>;

export interface TokenReadOptions {
  /** Variables to read the chains and thirdweb credentials from (default: the server's environment). */
  env?: Record<string, string | undefined>;
  /** How long one chain read may take before the chain counts as unreachable. */
  timeoutMs?: number;
}

const defaultTimeoutMs = 8_000;

const interfaceIds = { erc721: "0x80ac58cd", erc1155: "0xd9b67a26" } as const;

const standardNames = { erc20: "ERC-20", erc721: "ERC-721", erc1155: "ERC-1155" } as const;

class Unreachable extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function thirdwebChain({ defineChain }: Sdk, chain: SupportedChain): Chain {
  return chain.rpc ? defineChain({ id: chain.id, name: chain.name, rpc: chain.rpc }) : defineChain(chain.id);
}

/** A short, printable string from a contract's name()/symbol(), or null. */
function label(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // a contract may return any bytes: keep printable text only
  const text = Array.from(value)
    .filter((char) => char >= " " && char !== "\u007f")
    .join("")
    .trim();
  return text ? text.slice(0, 64) : null;
}

interface ChainReader {
  sdk: Sdk;
  chain: SupportedChain;
  client: ThirdwebClient;
  timeoutMs: number;
}

async function reader(chainId: number, options: TokenReadOptions): Promise<TokenResult<ChainReader>> {
  const env = options.env;
  const chain = findChain(env ? serverChainConfig(env) : serverChainConfig(), chainId);
  if (!chain) return { ok: false, error: { field: "chainId", code: "unsupported_chain", message: roomMessages.chainUnsupported } };
  const sdk = await loadSdk();
  const thirdweb = env
    ? sdk.serverThirdwebClient({
        NEXT_PUBLIC_THIRDWEB_CLIENT_ID: env.NEXT_PUBLIC_THIRDWEB_CLIENT_ID,
        THIRDWEB_SECRET_KEY: env.THIRDWEB_SECRET_KEY,
      })
    : sdk.serverThirdwebClient();
  if (!thirdweb.ok) return { ok: false, error: { field: "chainId", code: "chain_unavailable", message: thirdweb.error } };
  return { ok: true, data: { sdk, chain, client: thirdweb.client, timeoutMs: options.timeoutMs ?? defaultTimeoutMs } };
}

const unreachable = (chain: SupportedChain): GateTokenError => ({
  field: "chainId",
  code: "chain_unreachable",
  message: `We couldn't reach ${chain.name} to check this token. Try again in a minute.`,
});

/** Reads the contract's facts as the chosen standard; null when it does not answer as one. */
async function readAsStandard(
  reader: ChainReader,
  address: `0x${string}`,
  standard: GateInput["standard"],
): Promise<Omit<GateToken, "chainName" | "label"> | null> {
  const { getContract, readContract } = reader.sdk;
  const contract = getContract({ client: reader.client, chain: thirdwebChain(reader.sdk, reader.chain), address });
  const read = <T>(call: () => Promise<T>) => withTimeout(call(), reader.timeoutMs);
  const optional = <T>(call: () => Promise<T>) => read(call).catch(() => null);
  const name = () => optional(() => readContract({ contract, method: "function name() view returns (string)" }));
  const symbol = () => optional(() => readContract({ contract, method: "function symbol() view returns (string)" }));

  if (standard === "erc20") {
    const [decimals, erc20Symbol] = await Promise.all([
      read(() => readContract({ contract, method: "function decimals() view returns (uint8)" })).catch(() => null),
      read(() => readContract({ contract, method: "function symbol() view returns (string)" })).catch(() => null),
    ]);
    if (decimals === null || erc20Symbol === null || decimals > 77) return null;
    return { name: label(await name()), symbol: label(erc20Symbol), decimals: Number(decimals) };
  }
  const supported = await read(() =>
    readContract({
      contract,
      method: "function supportsInterface(bytes4 interfaceId) view returns (bool)",
      params: [interfaceIds[standard]],
    }),
  ).catch(() => false);
  if (supported !== true) return null;
  const [tokenName, tokenSymbol] = await Promise.all([name(), symbol()]);
  return { name: label(tokenName), symbol: label(tokenSymbol), decimals: 0 };
}

/** Which other standard the contract answers as, if any, so a wrong choice can be named. */
async function otherStandard(
  reader: ChainReader,
  address: `0x${string}`,
  chosen: GateInput["standard"],
): Promise<GateInput["standard"] | null> {
  for (const standard of (["erc721", "erc1155", "erc20"] as const).filter((other) => other !== chosen)) {
    if (await readAsStandard(reader, address, standard)) return standard;
  }
  return null;
}

/**
 * Checks a gate's contract on its chain: the chain is supported here, there is code at the
 * address, and the contract answers as the chosen standard (ERC-165 supportsInterface for ERC-721
 * and ERC-1155; decimals() and symbol() for ERC-20). Returns the token's name, symbol, decimals and
 * the label to confirm, or an error for the field at fault.
 */
export async function describeGateToken(
  gate: Pick<GateInput, "chainId" | "contractAddress" | "standard">,
  options: TokenReadOptions = {},
): Promise<TokenResult<GateToken>> {
  const ready = await reader(gate.chainId, options);
  if (!ready.ok) return ready;
  const { sdk, chain, client, timeoutMs } = ready.data;
  const { eth_blockNumber, eth_getCode, getRpcClient } = sdk;
  const address = gate.contractAddress.toLowerCase() as `0x${string}`;
  const shown = shortChecksummedAddress(address);
  const rpc = getRpcClient({ client, chain: thirdwebChain(sdk, chain) });
  const chainAnswers = () =>
    withTimeout(eth_blockNumber(rpc), timeoutMs).then(
      () => true,
      () => false,
    );

  try {
    const code = await withTimeout(eth_getCode(rpc, { address }), timeoutMs).catch((error) => {
      throw new Unreachable(String(error));
    });
    if (!code || code === "0x") {
      return {
        ok: false,
        error: { field: "contractAddress", code: "no_contract", message: `There is no contract at ${shown} on ${chain.name}` },
      };
    }
    const facts = await readAsStandard(ready.data, address, gate.standard);
    if (!facts) {
      // a read that failed because the chain went away is not the contract's fault
      if (!(await chainAnswers())) throw new Unreachable("the chain stopped answering");
      const actual = await otherStandard(ready.data, address, gate.standard);
      const chosen = standardNames[gate.standard];
      const message = actual
        ? `The contract at ${shown} on ${chain.name} is an ${standardNames[actual]} token, not an ${chosen} — choose ${standardNames[actual]}`
        : `The contract at ${shown} on ${chain.name} doesn't answer as an ${chosen} token — check the address and the standard`;
      return { ok: false, error: { field: "standard", code: "wrong_standard", message } };
    }
    const title = facts.name ?? shown;
    return {
      ok: true,
      data: { ...facts, chainName: chain.name, label: `Token: ${title}${facts.symbol ? ` (${facts.symbol})` : ""} on ${chain.name}` },
    };
  } catch (error) {
    if (error instanceof Unreachable) return { ok: false, error: unreachable(chain) };
    throw error;
  }
}

/**
 * A validated form gate, checked on chain and ready to save: the record for create_room /
 * set_room_gate (ERC-20 minimum converted from whole tokens to smallest units with the decimals
 * read on chain) and the token to show.
 */
export async function prepareGate(
  gate: GateInput,
  options: TokenReadOptions = {},
): Promise<TokenResult<{ record: RoomGateRecord; token: GateToken }>> {
  const token = await describeGateToken(gate, options);
  if (!token.ok) return token;
  const record = gateRecord(gate, token.data.decimals);
  if (!record.ok) return { ok: false, error: { ...record.error, code: "amount_too_large" } };
  return { ok: true, data: { record: record.data, token: token.data } };
}

/** A saved gate (a room_gates row) as people read it: "At least 1 CUE on Local chain". */
export async function gateRequirementText(
  gate: Pick<RoomGateRecord, "chain_id" | "contract_address" | "standard" | "token_id" | "min_balance">,
  options: TokenReadOptions = {},
): Promise<TokenResult<{ text: string; token: GateToken }>> {
  const token = await describeGateToken(
    { chainId: gate.chain_id, contractAddress: gate.contract_address as `0x${string}`, standard: gate.standard },
    options,
  );
  if (!token.ok) return token;
  const text = requirementText({
    standard: gate.standard,
    minBalance: gate.min_balance,
    tokenId: gate.token_id,
    symbol: token.data.symbol,
    decimals: token.data.decimals,
    chainName: token.data.chainName,
    shortAddress: shortChecksummedAddress(gate.contract_address),
  });
  return { ok: true, data: { text, token: token.data } };
}
