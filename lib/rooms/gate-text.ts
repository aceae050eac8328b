// How a gate reads to people: "at least 1 CUE on Base", and the refusals built on it (PRODUCT.md's
// message form). Pure text from what the chain told us, shared by the app and the join-room
// function (Deno, by relative path), so a page and a refusal always say the same thing.
import { formatUnits } from "../chain/units.ts";

export type GateStandard = "erc20" | "erc721" | "erc1155";

export interface GateTokenFacts {
  standard: GateStandard;
  /** Smallest units, decimal text (room_gates.min_balance). */
  minBalance: string;
  tokenId: string | null;
  /** What the contract says of itself; null when it does not say (ERC-1155 usually has no symbol). */
  symbol: string | null;
  decimals: number;
  chainName: string;
  /** The contract's address as shown to people, e.g. 0xAb12…cdEF. */
  shortAddress: string;
}

/** "1 CUE", "2 CUEPASS", "3 of token #1 of 0x0165…Eb8F", "1 token of 0xAb…cd". */
function tokenAmountText(facts: Omit<GateTokenFacts, "chainName">): string {
  const amount = formatUnits(BigInt(facts.minBalance), facts.standard === "erc20" ? facts.decimals : 0);
  const symbol = facts.symbol?.trim();
  if (facts.standard === "erc1155") {
    const item = `token #${facts.tokenId} of ${symbol || facts.shortAddress}`;
    return `${amount} of ${item}`;
  }
  if (symbol) return `${amount} ${symbol}`;
  return `${amount} ${amount === "1" ? "token" : "tokens"} of ${facts.shortAddress}`;
}

/** "At least 1 CUE on Local chain" */
export function requirementText(facts: GateTokenFacts): string {
  return `At least ${tokenAmountText(facts)} on ${facts.chainName}`;
}

/** Why a person with linked wallets was not let in (or lost access). */
export function notEnoughTokensText(facts: GateTokenFacts): string {
  return `You need at least ${tokenAmountText(facts)} on ${facts.chainName} to join. None of your linked wallets hold enough.`;
}

/** Why a person with no linked wallet was not let in; the page links to /account. */
export function noWalletText(facts: GateTokenFacts): string {
  return `You need at least ${tokenAmountText(facts)} on ${facts.chainName} to join. Link a wallet that holds it on your account page, then join again.`;
}
