// What a room page says about its live connection and the person's membership. Apart from the
// connection itself (./room-connection.ts), which loads with the data client after first paint.

const ownLeaves = new Set<string>();

/** The person is leaving the room themselves (the Leave button): the page says "You left", not "removed". */
export function noteOwnLeave(roomId: string): void {
  ownLeaves.add(roomId);
}

/** Whether the person left `roomId` themselves (once: the note is used up). */
export function takeOwnLeave(roomId: string): boolean {
  return ownLeaves.delete(roomId);
}

export function membershipEndedMessage(gated: boolean, ownLeave: boolean): string {
  if (ownLeave)
    return gated
      ? "You left this room — this page has stopped updating."
      : "You left this room — you can still read along; join again to post.";
  return gated
    ? "You're no longer a member of this room — your membership was removed or has lapsed, so this page has stopped updating."
    : "You're no longer a member of this room — your membership was removed. You can still read along; join again to post and comment.";
}

export const refusedMessage = "Only members can follow this room live — join it to see new posts and comments as they happen.";
