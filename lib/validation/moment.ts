import { momentMessages, reactionEmoji } from "../moments/rules.ts";
import { bodyText } from "./text.ts";
import { z } from "./zod.ts";

// One set of schemas for comments (moments) and reactions: the forms, their server actions, and
// anything else that accepts them. The database enforces the same rules (moments_* and reactions_*
// constraints, moments_at_seconds_within_duration in private.moment_from_post).

/** Seconds into the media, or null for a general comment. */
export const momentAtSchema = z
  .number({ error: momentMessages.atInvalid })
  .min(0, { error: momentMessages.atNegative })
  .max(172800, { error: momentMessages.atPastEnd })
  .nullable();

export const momentBodySchema = bodyText(
  1000,
  { required: momentMessages.bodyRequired, tooLong: momentMessages.bodyTooLong },
  { trim: false },
);

export const newMomentSchema = z.object({
  postId: z.uuid(),
  atSeconds: momentAtSchema,
  body: momentBodySchema,
  /** Made during a listening session (the database checks it is live and plays this post). */
  sessionId: z.uuid().optional(),
});

/** A reply to a comment: it takes that comment's post and time in the database. */
export const newReplySchema = z.object({
  parentId: z.uuid(),
  body: momentBodySchema,
});

export const editMomentSchema = z.object({
  momentId: z.uuid(),
  body: momentBodySchema,
});

export const reactionSchema = z.object({
  momentId: z.uuid(),
  emoji: z.enum(reactionEmoji, { error: momentMessages.emojiNotInSet }),
});
