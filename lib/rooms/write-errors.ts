// What Postgres said when it refused a write to a room, in the words the settings page shows.
// Constraints map to the field they concern; the rooms migration's guards (raised as 42501) and
// row-level security (no row changed) read as who may do what.

import { textMessages } from "@/lib/validation/text";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import { roomMessages } from "@/lib/validation/room";

export interface WriteError {
  field?: string;
  message: string;
}

interface PostgresError {
  code?: string;
  message: string;
  details?: string | null;
}

const constraintMessages: Record<string, WriteError> = {
  rooms_slug_key: { field: "slug", message: "That address is taken" },
  rooms_slug_format: { field: "slug", message: "Room addresses use 3–48 lowercase letters, digits or -, not starting or ending with -" },
  rooms_name_length: { field: "name", message: "Room names are 1–80 characters" },
  rooms_description_length: { field: "description", message: "Descriptions are up to 500 characters" },
  rooms_name_characters: { field: "name", message: textMessages.lineCharacters },
  rooms_description_characters: { field: "description", message: textMessages.bodyCharacters },
  rooms_cover_path_in_own_folder: { message: "That upload doesn't belong to this room." },
  rooms_session_starters: { field: "sessionStarters", message: roomMessages.sessionStartersUnknown },
  room_gates_chain_supported: { field: "chainId", message: "That chain is not supported" },
  room_gates_contract_address_format: { field: "contractAddress", message: "Enter the token contract's address (0x and 40 hex digits)" },
  room_gates_token_id_format: { field: "tokenId", message: "Token ids are whole numbers" },
  room_gates_token_id_for_erc1155: { field: "tokenId", message: "An ERC-1155 gate needs a token id (and other standards take none)" },
  room_gates_min_balance_positive: { field: "minBalance", message: "The minimum balance is a whole number of at least 1" },
  room_gates_numbers_in_uint256: { field: "minBalance", message: roomMessages.minBalanceTooLarge },
};

export const unreachable = "We couldn't reach Cuepoint — check your connection and try again.";

/** Postgres' refusal as a message, next to its field when it concerns one. */
export function roomWriteError(error: PostgresError, fallback: string): WriteError {
  const limited = rateLimitRefusal(error);
  if (limited) return { message: limited };
  const text = `${error.message} ${error.details ?? ""}`;
  const constraint = Object.keys(constraintMessages).find((name) => text.includes(name));
  if (constraint) return constraintMessages[constraint];
  // The migration's guards raise insufficient_privilege with a sentence meant for people.
  if (error.code === "42501" && error.message && !/row-level security|permission denied/i.test(error.message))
    return { message: `${error.message.replace(/\.$/, "")}.` };
  return { message: fallback };
}
