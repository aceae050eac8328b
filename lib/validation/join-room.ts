import { z } from "./zod.ts";

// The join-room function's request and answers, shared by lib/rooms/join.ts (which calls it) and
// the function (which validates the body again). Deno imports this file by relative path.

export const joinRoomMessages = {
  malformed: 'Send {"room_id": "<room id>"} to join, or {"room_id", "action": "recheck"} to re-check a membership.',
  notSignedIn: "Sign in to join a room.",
  roomNotFound: "This room doesn't exist any more — it may have been deleted.",
  internal: "Something went wrong on our side and you were not let in — try again.",
  unreachable: (chainName: string) => `We couldn't reach ${chainName} to check your tokens, so nothing changed. Try again in a minute.`,
  chainUnsupported: (chainName: string) =>
    `This room's token is on ${chainName}, which this site can't read right now, so nobody can be let in — ask the room's owner.`,
  gateBroken: (chainName: string) =>
    `This room's token contract on ${chainName} didn't answer a balance check, so nobody can be let in — ask the room's owner to check the gate.`,
  /** `until` in UTC words; the app words `until` (ISO, in the answer) in the reader's own time zone. */
  banned: (until: string | null) => (until ? `You were banned from this room until ${until}.` : "You were banned from this room."),
  walletBanned: "Your wallet was linked to an account banned from this room, so it can't let you in.",
} as const;

/** How long a gated membership's last balance check stays good before the next visit re-reads it. */
export const membershipRecheckAfterMs = 60 * 60 * 1000;

export const joinRoomBodySchema = z
  .object({
    room_id: z.uuid(),
    action: z.enum(["join", "recheck"]).default("join"),
  })
  .strict();

export type JoinRoomBody = z.input<typeof joinRoomBodySchema>;

/** A membership as the function returns it. */
export interface JoinedMembership {
  room_id: string;
  user_id: string;
  role: "owner" | "moderator" | "member";
  joined_at: string;
  verified_wallet: string | null;
  verified_at: string | null;
}

/** POST {room_id} (join): the membership, and whether it existed before this call. */
export interface JoinAnswer {
  membership: JoinedMembership;
  already_member: boolean;
}

/**
 * POST {room_id, action: "recheck"}:
 * - fresh: checked within the hour, nothing read;  renewed: balances re-read, still qualifies;
 * - lapsed: no linked wallet qualifies any more, the membership was removed (`reason` says why);
 * - exempt: owner, moderator, or a public room — never re-checked;  not_member: nothing to check.
 */
export type RecheckAnswer =
  | { status: "fresh" | "renewed"; membership: JoinedMembership }
  | { status: "lapsed"; reason: string; requirement: string }
  | { status: "exempt"; membership: JoinedMembership }
  | { status: "not_member" };

/** Refusals and failures: `error` is the sentence to show; `requirement` ("At least 1 CUE on Base") when a gate was read. */
export type JoinRoomErrorCode =
  | "malformed"
  | "not_signed_in"
  | "room_not_found"
  | "no_wallet"
  | "not_enough_tokens"
  | "chain_unreachable"
  | "chain_unavailable"
  | "gate_broken"
  | "banned"
  | "wallet_banned"
  | "internal"
  | "offline";

export interface JoinRoomError {
  code: JoinRoomErrorCode;
  error: string;
  requirement?: string;
  /** code "banned": when the ban ends (ISO 8601, UTC); null: for good. */
  until?: string | null;
}
