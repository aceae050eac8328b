// Postgres' refusals of comments and reactions, in words people read next to the field they typed in.
import { textMessages } from "@/lib/validation/text";
import { momentMessages } from "@/lib/moments/rules";
import type { Failure, Success } from "@/lib/result";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";

export type MomentField = "body" | "atSeconds" | "emoji";

/** What a comment or reaction action answers: a refusal carries each field's message for the form. */
export type MomentActionResult<T> = Success<T> | (Failure & { errors?: Partial<Record<MomentField, string>> });
export interface WriteProblem {
  message: string;
  field?: MomentField;
}

export const momentActionMessages = {
  joinToComment: "Join the room to comment",
  joinToReact: "Join the room to react",
  postGone: "That post no longer exists",
  momentGone: "That comment no longer exists",
  alreadyReacted: "You already reacted with that emoji",
  onlyAuthorEdits: "Only its author can edit this comment.",
  onlyAllowedDelete: "Only its author, the room's moderators and its owner can delete this comment.",
  saveFailed: "We couldn't save your comment — try again in a moment.",
  reactFailed: "We couldn't save your reaction — try again in a moment.",
  deleteFailed: "We couldn't delete the comment — try again in a moment.",
  sessionOver: "The listening session has ended — your comment wasn't posted.",
  sessionMovedOn: "The session has moved on to another post — your comment wasn't posted. Post it again to stamp it on what plays now.",
  sessionElsewhere: "That listening session isn't in this room.",
  parentGone: "That comment is no longer there — your reply wasn't posted.",
  replyToThread: "Reply to the comment that started the thread.",
  replyStays: "A reply stays under the comment it answers.",
  commentDeleted: "That comment was deleted.",
  replyFailed: "We couldn't post your reply — try again in a moment.",
  joinToReply: "Join the room to reply",
} as const;

type DbError = { code?: string; message: string; details?: string | null };

/** A refused write of a moment or reaction: RLS (42501), a constraint (by name or by the trigger's words), a vanished parent. */
export function writeProblem(error: DbError, writing: "moment" | "reply" | "reaction"): WriteProblem {
  const limited = rateLimitRefusal(error);
  if (limited) return { message: limited };
  const text = `${error.message} ${error.details ?? ""}`;
  // A comment made during a listening session: the session's state refused it (PT409).
  if (/This session has ended/.test(text)) return { message: momentActionMessages.sessionOver };
  if (/isn't playing in the session/.test(text)) return { message: momentActionMessages.sessionMovedOn };
  if (/moments_session_id_fkey|session isn't in this room/.test(text)) return { message: momentActionMessages.sessionElsewhere };
  // Replies: the comment answered (gone, itself a reply, deleted), and a reply's place is fixed.
  // (Postgres' answer carries the trigger's words; the constraint's name where it has one.)
  if (/moments_parent_is_not_a_reply|Reply to the comment that started/.test(text)) return { message: momentActionMessages.replyToThread };
  if (/moments_parent_fixed|A reply stays/.test(text)) return { message: momentActionMessages.replyStays };
  if (/moments_deleted_is_final|comment was deleted/.test(text)) return { message: momentActionMessages.commentDeleted };
  if (/moments_parent_id_fkey|comment is no longer there/.test(text)) return { message: momentActionMessages.parentGone };
  if (error.code === "42501")
    return {
      message:
        writing === "moment"
          ? momentActionMessages.joinToComment
          : writing === "reply"
            ? momentActionMessages.joinToReply
            : momentActionMessages.joinToReact,
    };
  if (/moments_at_seconds_within_duration|past the end of the media/.test(text))
    return { message: momentMessages.atPastEnd, field: "atSeconds" };
  if (text.includes("moments_at_seconds_range")) return { message: momentMessages.atInvalid, field: "atSeconds" };
  if (text.includes("moments_body_length")) return { message: `${momentMessages.bodyRequired} (1–1000 characters)`, field: "body" };
  if (text.includes("moments_body_characters")) return { message: textMessages.bodyCharacters, field: "body" };
  if (text.includes("reactions_one_per_emoji") || (error.code === "23505" && writing === "reaction"))
    return { message: momentActionMessages.alreadyReacted, field: "emoji" };
  if (text.includes("reactions_emoji_in_set")) return { message: momentMessages.emojiNotInSet, field: "emoji" };
  if (/moments_post_id_fkey|post no longer exists/.test(text)) return { message: momentActionMessages.postGone };
  if (/reactions_moment_id_fkey|comment no longer exists/.test(text)) return { message: momentActionMessages.momentGone };
  if (writing === "reply") return { message: momentActionMessages.replyFailed };
  return { message: writing === "moment" ? momentActionMessages.saveFailed : momentActionMessages.reactFailed };
}
