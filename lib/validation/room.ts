import { localChain, publicChains } from "../chain/chains.ts";
import { maxUint256, wholeTokensToUnits } from "../chain/units.ts";
import type { Result } from "../result.ts";
import type { GateStandard } from "../rooms/gate-text.ts";
import { sessionStarterChoices } from "../rooms/session-starters.ts";
import { bodyText, lineText } from "./text.ts";
import { z } from "./zod.ts";

// One schema per input for rooms and their gates, shared by the create-room and settings forms,
// their server actions, and anything else that accepts them. The database enforces the same rules
// (rooms_* and room_gates_* constraints, whose comments carry these messages).
//
// Minimum balances: people type a whole number of TOKENS, not smallest units. For an ERC-20 gate
// "1" means one whole token (1 CUE); the server reads the token's decimals on chain and stores
// 1 × 10^decimals in room_gates.min_balance (see gateRecord). For ERC-721 and ERC-1155 gates the
// number is a count of tokens and is stored as typed. Fractions of an ERC-20 token are not offered.

export const roomMessages = {
  slugFormat: "Room addresses use 3–48 lowercase letters, digits or -, not starting or ending with -",
  slugTaken: "That address is taken",
  nameRequired: "Give the room a name",
  nameTooLong: "Room names are 1–80 characters",
  descriptionTooLong: "Descriptions are up to 500 characters",
  chainUnsupported: "That chain is not supported",
  contractAddressFormat: "Enter the token contract's address (0x and 40 hex digits)",
  standardUnknown: "Choose ERC-20, ERC-721 or ERC-1155",
  tokenIdRequired: "An ERC-1155 gate needs a token id",
  tokenIdNotAllowed: "Only ERC-1155 gates take a token id — leave it empty",
  tokenIdFormat: "Token ids are whole numbers, like 1",
  tokenIdTooLarge: "That token id is larger than any token's can be",
  minBalanceFormat: "The minimum balance is a whole number of at least 1",
  minBalanceTooLarge: "That minimum balance is more than any token balance can be",
  sessionStartersUnknown: "Choose who can start listening sessions: the owner and moderators, or any member",
} as const;

/** Chain ids a gate may name (room_gates_chain_supported); whether one is enabled here is the server's call. */
const gateChainIds: readonly number[] = [...publicChains, localChain].map((chain) => chain.id);

const gateStandards = ["erc20", "erc721", "erc1155"] as const satisfies readonly GateStandard[];

export const roomSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/, roomMessages.slugFormat);

export const roomNameSchema = lineText(80, { required: roomMessages.nameRequired, tooLong: roomMessages.nameTooLong });

export const roomDescriptionSchema = bodyText(500, { tooLong: roomMessages.descriptionTooLong }).default("");

export const roomFieldsSchema = z.object({
  slug: roomSlugSchema,
  name: roomNameSchema,
  description: roomDescriptionSchema,
});

export type RoomFields = z.infer<typeof roomFieldsSchema>;

export const sessionStartersSchema = z.object({
  sessionStarters: z.enum(sessionStarterChoices, { error: roomMessages.sessionStartersUnknown }),
});

const uintText = /^(0|[1-9][0-9]{0,77})$/;

// Form values arrive as text; chain ids may also come as numbers from code.
const chainIdSchema = z
  .union([z.number(), z.string().trim()], { error: roomMessages.chainUnsupported })
  .transform((value) => (typeof value === "number" ? value : /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN))
  .refine((id) => gateChainIds.includes(id), roomMessages.chainUnsupported);

/** A form's empty token id is none; numbers from code are read as text. */
function tokenIdText(value: unknown): unknown {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== "string") return value;
  return value.trim() === "" ? null : value.trim();
}

/**
 * A gate as the form sends it (chainId, contractAddress, standard, tokenId, minBalance) → the
 * normalised gate: numeric chain id, lowercase address, token id only for ERC-1155, minimum
 * balance as whole-number text (whole tokens for ERC-20, a count for ERC-721/1155).
 */
export const gateInputSchema = z
  .object({
    chainId: chainIdSchema,
    contractAddress: z
      .string(roomMessages.contractAddressFormat)
      .trim()
      .regex(/^0x[0-9a-fA-F]{40}$/, roomMessages.contractAddressFormat)
      .transform((address) => address.toLowerCase() as `0x${string}`),
    standard: z.enum(gateStandards, roomMessages.standardUnknown),
    tokenId: z.preprocess(
      tokenIdText,
      z
        .string()
        .regex(uintText, roomMessages.tokenIdFormat)
        .refine((id) => !uintText.test(id) || BigInt(id) <= maxUint256, roomMessages.tokenIdTooLarge)
        .nullable()
        .default(null),
    ),
    minBalance: z.preprocess(
      (value) =>
        typeof value === "number" && Number.isSafeInteger(value)
          ? String(value)
          : typeof value === "string"
            ? value.trim().replace(/^0+(?=\d)/, "")
            : value,
      z.string(roomMessages.minBalanceFormat).regex(/^[1-9][0-9]{0,77}$/, roomMessages.minBalanceFormat),
    ),
  })
  .superRefine((gate, ctx) => {
    if (gate.standard === "erc1155" && gate.tokenId === null)
      ctx.addIssue({ code: "custom", path: ["tokenId"], message: roomMessages.tokenIdRequired });
    if (gate.standard !== "erc1155" && gate.tokenId !== null)
      ctx.addIssue({ code: "custom", path: ["tokenId"], message: roomMessages.tokenIdNotAllowed });
  });

export type GateInput = z.output<typeof gateInputSchema>;

/** A gate as create_room / set_room_gate take it, and as room_gates stores it (min_balance in smallest units). */
export interface RoomGateRecord {
  chain_id: number;
  contract_address: string;
  standard: GateStandard;
  token_id: string | null;
  min_balance: string;
}

/**
 * The stored form of a validated gate, given the token's decimals read on chain (ERC-20; 0 for
 * the others). An amount past uint256 is an error for the minimum balance field.
 */
export function gateRecord(gate: GateInput, decimals: number): Result<RoomGateRecord, { field: "minBalance"; message: string }> {
  const units = gate.standard === "erc20" ? wholeTokensToUnits(gate.minBalance, decimals) : BigInt(gate.minBalance);
  if (units > maxUint256) return { ok: false, error: { field: "minBalance", message: roomMessages.minBalanceTooLarge } };
  return {
    ok: true,
    data: {
      chain_id: gate.chainId,
      contract_address: gate.contractAddress,
      standard: gate.standard,
      token_id: gate.tokenId,
      min_balance: units.toString(),
    },
  };
}
