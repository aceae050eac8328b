// Postgres' refusals of queue writes, in the words shown next to the control that made them. The
// constraints' own comments in the listening sessions migration are the source of these words.

type DbError = { code?: string; message: string; details?: string | null };

export const queueMessages = {
  duplicate: "That post is already in the queue",
  suggestionLimit: "You can suggest up to 10 posts at a time",
  queueLimit: "The queue holds up to 200 posts",
  sessionEnded: "This session has ended",
  sessionGone: "That session no longer exists",
  postNotInRoom: "That post isn't in this room",
  membersOnly: "Only members of the room can add to its queue.",
  onlyHostOrders: "Only the host can reorder the queue and accept suggestions.",
  onlyAllowedRemove: "Only the host, the room's moderators and its owner can remove that — people can withdraw their own suggestions.",
  cannotMove: "That can't move further — reload the page and try again.",
  failed: "We couldn't change the queue — try again in a moment.",
  unreachable: "We couldn't reach Cuepoint — check your connection and try again.",
} as const;

export type QueueWrite = "add" | "order" | "remove";

const constraints: [RegExp, string][] = [
  [/session_queue_one_per_post|already in the queue/, queueMessages.duplicate],
  [/session_queue_suggestion_limit|suggest up to/, queueMessages.suggestionLimit],
  [/session_queue_limit|queue holds up to/, queueMessages.queueLimit],
  [/session has ended/, queueMessages.sessionEnded],
  [/session_queue_session_id_fkey|session no longer exists/, queueMessages.sessionGone],
  [/session_queue_post_id_fkey|post isn't in this room/, queueMessages.postNotInRoom],
];

/** Why a write to the queue was refused (a constraint, the session's state, or a policy), in words. */
export function queueWriteError(error: DbError, write: QueueWrite): string {
  const text = `${error.message} ${error.details ?? ""}`;
  const known = constraints.find(([pattern]) => pattern.test(text));
  if (known) return known[1];
  if (error.code === "42501" || /row-level security/i.test(text)) return refusedBy(write);
  return queueMessages.failed;
}

/** A write the policies let through to no row (an update or delete of someone else's entry). */
export const refusedBy = (write: QueueWrite): string =>
  write === "add" ? queueMessages.membersOnly : write === "order" ? queueMessages.onlyHostOrders : queueMessages.onlyAllowedRemove;
