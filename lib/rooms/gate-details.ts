// Server-only: a saved gate as people read it, with where to find its token. The chain is asked for
// the token's name and symbol (lib/chain/tokens.ts); without an answer the gate still reads as a
// sentence, never a raw contract (DESIGN.md: a token is its name, symbol and chain).
import { shortChecksummedAddress } from "@/lib/chain/address";
import { tokenExplorerLink } from "@/lib/chain/chains";
import { gateRequirementText } from "@/lib/chain/tokens";
import type { RoomGateRecord } from "@/lib/validation/room";
import { chainName, standardName } from "./chain-name";

export interface GateDetails {
  /** "Holders of at least 1 CUEPASS on Local chain" (without the chain's answer: "Holders of an ERC-721 token on Local chain"). */
  requirement: string;
  /** "Cuepoint Pass (CUEPASS)", as the contract names itself; null when the chain did not say. */
  token: string | null;
  standard: string;
  chainName: string;
  /** The contract, shortened (0x5FC8…5707), and in full, for a second line and a title. */
  shortAddress: string;
  address: string;
  /** The token's page on the chain's block explorer, where the chain has one. */
  explorer: { name: string; url: string } | null;
}

/** A room_gates row (its standard as stored text; the table's check holds it to the three). */
type SavedGate = Pick<RoomGateRecord, "chain_id" | "contract_address" | "token_id" | "min_balance"> & { standard: string };

/** A token's own words: "Cuepoint Pass (CUEPASS)", "CUEPASS", or null. */
export function tokenTitle(name: string | null, symbol: string | null): string | null {
  if (name && symbol && name !== symbol) return `${name} (${symbol})`;
  return name ?? symbol ?? null;
}

/** The gate with the chain's answer (after `timeoutMs`, without it). */
export async function gateDetails(gate: SavedGate, { timeoutMs = 3_000 }: { timeoutMs?: number } = {}): Promise<GateDetails> {
  const read = await gateRequirementText({ ...gate, standard: gate.standard as RoomGateRecord["standard"] }, { timeoutMs }).catch(
    () => null,
  );
  const chain = chainName(gate.chain_id);
  const standard = standardName(gate.standard);
  const item = gate.token_id === null ? "" : ` #${gate.token_id}`;
  return {
    requirement: read?.ok
      ? `Holders of ${read.data.text.replace(/^At least/, "at least")}`
      : `Holders of an ${standard} token${item} on ${chain}`,
    token: read?.ok ? tokenTitle(read.data.token.name, read.data.token.symbol) : null,
    standard,
    chainName: chain,
    shortAddress: shortChecksummedAddress(gate.contract_address),
    address: gate.contract_address,
    explorer: tokenExplorerLink(gate.chain_id, gate.contract_address, gate.token_id),
  };
}
