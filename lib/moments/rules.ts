// The fixed values of comments and reactions, without zod: the reaction set and the words of
// each refusal. The schemas that use them are in lib/validation/moment.ts (loaded by the browser
// only when a comment is checked, see ./schemas.ts).

export const reactionEmoji = ["🔥", "❤️", "😂", "😮", "👏"] as const;
export type ReactionEmoji = (typeof reactionEmoji)[number];

export const momentMessages = {
  bodyRequired: "Write a comment",
  bodyTooLong: "Comments are up to 1000 characters",
  atNegative: "A moment can't be before the start",
  atPastEnd: "That time is past the end of the media",
  atInvalid: "Pick a time in the media",
  emojiNotInSet: "Reactions are one of 🔥 ❤️ 😂 😮 👏",
} as const;
