// The schemas of the notification settings' writes, shared by the forms and the server actions
// (./settings-actions.ts): the database holds the same rule as check constraints
// (notification_settings_muted_kinds, notification_settings_email_kinds) and its policies.
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import { notificationKinds, notificationSettingsMessages as words, orderedKinds } from "./settings";

const kinds = z
  .array(z.enum(notificationKinds, { message: words.unknownKind }), { message: words.unknownKind })
  .max(notificationKinds.length * 4, words.unknownKind)
  .transform(orderedKinds);

export const notificationSettingsSchema = z.object({
  inApp: kinds,
  email: kinds,
  holdStrangers: z.boolean({ message: "Say whether to hold back people you don't share a room with" }),
});

export const muteInputSchema = z
  .object({
    roomId: uuidField(words.room).optional(),
    postId: uuidField(words.post).optional(),
    muted: z.boolean({ message: "Say whether to mute or unmute" }),
  })
  .refine((input) => (input.roomId ? 1 : 0) + (input.postId ? 1 : 0) === 1, { message: words.oneTarget, path: ["roomId"] });
export type MuteInput = z.input<typeof muteInputSchema>;

export const unmuteByIdSchema = uuidField("That mute is no longer there.");
