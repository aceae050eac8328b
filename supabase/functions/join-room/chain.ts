// Balance and token reads for gates, through thirdweb, with each chain's RPC override. An RPC that
// does not answer (or answers too slowly) is ChainUnreachable; a chain that answers while the
// gate's contract does not is GateBroken. Neither is ever mistaken for "holds nothing".
import { getContract, readContract, type ThirdwebClient } from "npm:thirdweb@5.121.6";
import { eth_blockNumber, getRpcClient } from "npm:thirdweb@5.121.6/rpc";
import { getAddress } from "npm:thirdweb@5.121.6/utils";
import { type SupportedChain, localChain, publicChains } from "../../../lib/chain/chains.ts";
import type { GateStandard, GateTokenFacts } from "../../../lib/rooms/gate-text.ts";
import { thirdwebChain } from "../_shared/thirdweb.ts";

export { chains, thirdwebClient } from "../_shared/thirdweb.ts";

/** A chain's name even when it is not enabled here (for messages about it). */
export function chainName(id: number): string {
  return [...publicChains, localChain].find((chain) => chain.id === id)?.name ?? `chain ${id}`;
}

const readTimeoutMs = 8_000;

export class ChainUnreachable extends Error {
  constructor(
    readonly chain: SupportedChain,
    cause: unknown,
  ) {
    super(`${chain.name} did not answer: ${(cause as Error)?.message ?? cause}`);
  }
}

export class GateBroken extends Error {
  constructor(
    readonly chain: SupportedChain,
    cause: unknown,
  ) {
    super(`the gate's contract on ${chain.name} did not answer: ${(cause as Error)?.message ?? cause}`);
  }
}

class TimedOut extends Error {}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no answer within ${readTimeoutMs} ms`)), readTimeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface Gate {
  chain_id: number;
  contract_address: string;
  standard: GateStandard;
  token_id: string | null;
  min_balance: string;
}

export class GateReader {
  readonly #contract;
  readonly #rpc;

  constructor(
    client: ThirdwebClient,
    readonly chain: SupportedChain,
    readonly gate: Gate,
  ) {
    const onChain = thirdwebChain(chain);
    this.#contract = getContract({ client, chain: onChain, address: gate.contract_address });
    this.#rpc = getRpcClient({ client, chain: onChain });
  }

  /** A failed read: the chain is gone (ChainUnreachable) or the contract would not answer (GateBroken). */
  async #failure(cause: unknown): Promise<Error> {
    // a read that got no answer in time: the chain is as good as gone, don't wait on it again
    if (cause instanceof TimedOut) return new ChainUnreachable(this.chain, cause);
    const answers = await withTimeout(eth_blockNumber(this.#rpc)).then(
      () => true,
      () => false,
    );
    return answers ? new GateBroken(this.chain, cause) : new ChainUnreachable(this.chain, cause);
  }

  /** The wallet's balance of the gate's token, in smallest units (ERC-1155: of the gate's token id). */
  async balanceOf(wallet: string): Promise<bigint> {
    const owner = wallet as `0x${string}`;
    try {
      return await withTimeout(
        this.gate.standard === "erc1155"
          ? readContract({
              contract: this.#contract,
              method: "function balanceOf(address account, uint256 id) view returns (uint256)",
              params: [owner, BigInt(this.gate.token_id ?? "0")],
            })
          : readContract({ contract: this.#contract, method: "function balanceOf(address owner) view returns (uint256)", params: [owner] }),
      );
    } catch (error) {
      throw await this.#failure(error);
    }
  }

  /**
   * The first of the wallets holding at least the gate's minimum, or null when none does. Reads
   * them all at once; a failed read matters only when no other wallet qualifies.
   */
  async qualifyingWallet(wallets: string[]): Promise<string | null> {
    const minimum = BigInt(this.gate.min_balance);
    const reads = await Promise.allSettled(wallets.map((wallet) => this.balanceOf(wallet)));
    const index = reads.findIndex((read) => read.status === "fulfilled" && read.value >= minimum);
    if (index >= 0) return wallets[index];
    const failed = reads.find((read): read is PromiseRejectedResult => read.status === "rejected");
    if (failed) throw failed.reason;
    return null;
  }

  /** Symbol and decimals for messages ("1 CUE"); what the contract does not say is left out. */
  async facts(): Promise<GateTokenFacts> {
    const optional = <T>(read: Promise<T>) => withTimeout(read).catch(() => null);
    const [symbol, decimals] = await Promise.all([
      optional(readContract({ contract: this.#contract, method: "function symbol() view returns (string)" })),
      this.gate.standard === "erc20"
        ? optional(readContract({ contract: this.#contract, method: "function decimals() view returns (uint8)" }))
        : Promise.resolve(0),
    ]);
    if (this.gate.standard === "erc20" && decimals === null) {
      // without decimals an ERC-20 amount cannot be shown in human units: find out why
      throw await this.#failure(new Error("decimals() did not answer"));
    }
    const checksummed = getAddress(this.gate.contract_address);
    return {
      standard: this.gate.standard,
      minBalance: this.gate.min_balance,
      tokenId: this.gate.token_id,
      symbol: typeof symbol === "string" && symbol.trim() ? symbol.trim().slice(0, 32) : null,
      decimals: Number(decimals ?? 0),
      chainName: this.chain.name,
      shortAddress: `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`,
    };
  }
}
