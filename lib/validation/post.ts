import { checkPlayableUrl } from "../media/playable.ts";
import { waveformLength, waveformTop } from "../media/peaks.ts";
import { bodyText, lineText } from "./text.ts";
import { z } from "./zod.ts";

// One set of schemas for the post forms, their server actions, and anything else that accepts a
// post. The database enforces the same limits (posts_* constraints on public.posts).

export const postMessages = {
  titleRequired: "Give the post a title",
  titleTooLong: "Titles are up to 120 characters",
  bodyTooLong: "Posts are up to 2000 characters",
  notMember: "Join the room to post in it",
  uploadMissing: "The upload has not finished — try again once it has",
  waveformInvalid: "The file's waveform couldn't be read — post it again",
} as const;

const postTitleSchema = lineText(120, { required: postMessages.titleRequired, tooLong: postMessages.titleTooLong });
const postBodySchema = bodyText(2000, { tooLong: postMessages.bodyTooLong });

/** The link's rules and react-player's (lib/media/playable.ts); its messages say which failed. */
const mediaUrlSchema = z.string().transform((value, context) => {
  const checked = checkPlayableUrl(value);
  if (checked.ok) return checked.url;
  context.addIssue({ code: "custom", message: checked.error });
  return z.NEVER;
});

export const linkPostSchema = z.object({ title: postTitleSchema, body: postBodySchema, url: mediaUrlSchema });
export type LinkPostInput = z.infer<typeof linkPostSchema>;

export const postEditSchema = z.object({ title: postTitleSchema, body: postBodySchema });
export type PostEditInput = z.infer<typeof postEditSchema>;

/** The longest media a post may have (48 h, as the posts table's check allows). */
export const maxPostDurationSeconds = 172800;

export const uploadPostSchema = z.object({
  title: postTitleSchema,
  body: postBodySchema,
  path: z.string().regex(/^[0-9a-f-]{36}\/[0-9a-f-]{36}\/[A-Za-z0-9-]+\.[a-z0-9]{1,5}$/, "That upload isn't one of yours"),
  durationSeconds: z.number().positive().max(maxPostDurationSeconds).nullable(),
  /** The file's peaks (lib/media/peaks.ts), as posts_waveform_shape allows; null when the browser could not read them. */
  waveform: z
    .array(
      z
        .number(postMessages.waveformInvalid)
        .int(postMessages.waveformInvalid)
        .min(0, postMessages.waveformInvalid)
        .max(waveformTop, postMessages.waveformInvalid),
      postMessages.waveformInvalid,
    )
    .min(1, postMessages.waveformInvalid)
    .max(waveformLength, postMessages.waveformInvalid)
    .nullable()
    .optional(),
});
export type UploadPostInput = z.infer<typeof uploadPostSchema>;
