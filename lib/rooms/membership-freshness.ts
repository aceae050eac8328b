// Keeping a gated room's membership fresh. The database counts an ordinary member of a gated room
// only while their last balance check is recent (gatedMembershipLifetimeMs); the app re-checks
// before that runs out — when a page of the room is rendered and the check is over an hour old,
// every few minutes while a page of the room stays open, and when the room's channel refuses a
// rejoin — so a holder never notices, and someone who no longer holds the token is told why.
import { membershipRecheckAfterMs } from "../validation/join-room.ts";
import { recheckMembership } from "./join.ts";

/** How long a balance check keeps an ordinary member in (private.gated_membership_lifetime()). */
export const gatedMembershipLifetimeMs = 75 * 60 * 1000;
/** How often an open page of a gated room asks (the answer is "fresh" until the hour is up). */
export const openPageRecheckEveryMs = 10 * 60 * 1000;

type FunctionsCaller = Parameters<typeof recheckMembership>[0];

/** What a re-check came to, for a page. */
export type Freshness =
  /** Still a member (renewed, fresh, or exempt). */
  | { kind: "member" }
  /** No linked wallet holds enough any more: the membership is gone; `message` says why. */
  | { kind: "lapsed"; message: string }
  /** Not (or no longer) a member, without a gate's reason (removed, left). */
  | { kind: "not_member" }
  /** The check could not be made (the chain or the server did not answer); `message` says so. */
  | { kind: "unchecked"; message: string };

export const lapsedMessage = (reason: string) => `You are no longer a member of this room. ${reason}`;

/** Asks the join-room function to re-check the caller's membership of the room. */
export async function recheckFreshness(supabase: FunctionsCaller, roomId: string): Promise<Freshness> {
  const answer = await recheckMembership(supabase, roomId);
  if (!answer.ok) return { kind: "unchecked", message: answer.error.error };
  if (answer.data.status === "lapsed") return { kind: "lapsed", message: lapsedMessage(answer.data.reason) };
  if (answer.data.status === "not_member") return { kind: "not_member" };
  return { kind: "member" };
}

export interface MembershipFacts {
  role: string;
  verified_at: string | null;
}

/** Whether the membership is one the database counts only while its check is fresh. */
export const needsChecks = (visibility: string, membership: MembershipFacts | null): membership is MembershipFacts =>
  membership !== null && membership.role === "member" && visibility === "gated";

/** Milliseconds since the membership's last balance check (never checked: forever). */
const checkAge = (membership: MembershipFacts, now: number) => now - (membership.verified_at ? Date.parse(membership.verified_at) : 0);

/**
 * For a page about to read a room: re-checks a gated membership whose check is over an hour old.
 * `membership` is null when it ended; `notice` is what to tell the person: why it ended, or — when
 * the check could not be made and the database no longer counts the old one — that nothing can be
 * read until it can.
 */
export async function freshMembership<M extends MembershipFacts>(
  supabase: FunctionsCaller,
  room: { id: string; visibility: string },
  membership: M | null,
  now = Date.now(),
): Promise<{ membership: M | null; notice: string | null; lapsed: boolean }> {
  if (!needsChecks(room.visibility, membership) || checkAge(membership, now) < membershipRecheckAfterMs)
    return { membership, notice: null, lapsed: false };
  const freshness = await recheckFreshness(supabase, room.id);
  switch (freshness.kind) {
    case "member":
      return { membership, notice: null, lapsed: false };
    case "lapsed":
      return { membership: null, notice: freshness.message, lapsed: true };
    case "not_member":
      return { membership: null, notice: null, lapsed: false };
    case "unchecked":
      // Within the grace the old check still counts; past it, the room reads as closed for now.
      return checkAge(membership, now) < gatedMembershipLifetimeMs
        ? { membership, notice: null, lapsed: false }
        : { membership: null, notice: freshness.message, lapsed: false };
  }
}
