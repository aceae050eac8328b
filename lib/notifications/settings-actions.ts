"use server";

// The writes of a person's notification choices: the kinds they take in Cuepoint and by email,
// holding back strangers, and muting a room or a thread. Each runs as the caller through the
// action prelude, and the tables' policies keep every row to its own person. They ask for no second
// factor: like joining a room or reacting, these are a person's own preferences and take nothing from
// what their account owns or controls (the rule of 20261126000200_aal2_covers_what_an_account_controls.sql).
import { revalidatePath } from "next/cache";
import { sessionEndedTo } from "@/lib/messages";
import type { Result } from "@/lib/result";
import { action, prelude } from "@/lib/server-action";
import { type MuteTarget, orderedKinds, settingsFromFormData } from "./settings";
import { removeMute, saveNotificationSettings, setMuted } from "./settings-data";
import type { NotificationSettingsFormState } from "./settings-form-state";
import { type MuteInput, muteInputSchema, notificationSettingsSchema, unmuteByIdSchema } from "./settings-schema";

const settingsSessionEnded = sessionEndedTo("save your notification settings");
const muteSessionEnded = sessionEndedTo("change what you muted");

export async function updateNotificationSettings(
  _previous: NotificationSettingsFormState,
  formData: FormData,
): Promise<NotificationSettingsFormState> {
  const posted = settingsFromFormData(formData);
  // What the form shows again if this save fails: what was chosen, as far as it names real kinds.
  const values = { inApp: orderedKinds(posted.inApp), email: orderedKinds(posted.email), holdStrangers: posted.holdStrangers };
  const started = await prelude(notificationSettingsSchema, posted, { sessionEnded: settingsSessionEnded });
  if (!started.ok) return { status: "error", values, message: started.error.message };
  const { supabase, userId, input } = started.data;
  const saved = await saveNotificationSettings(supabase, userId, input);
  if (!saved.ok) return { status: "error", values, message: saved.error };
  revalidatePath("/account");
  return { status: "saved", values: input };
}

/** "Mute notifications from this room" / "Mute this thread", and their undoing. */
export async function setNotificationMute(input: MuteInput): Promise<Result<{ muted: boolean }>> {
  return action(
    muteInputSchema,
    input,
    async (parsed, { supabase, userId }) => {
      const target: MuteTarget = parsed.roomId ? { roomId: parsed.roomId } : { postId: parsed.postId! };
      const answer = await setMuted(supabase, userId, target, parsed.muted);
      if (answer.ok) revalidatePath("/account");
      return answer;
    },
    { sessionEnded: muteSessionEnded },
  );
}

/** "Unmute" beside one entry of the account page's list. */
export async function unmuteById(muteId: string): Promise<Result> {
  return action(
    unmuteByIdSchema,
    muteId,
    async (id, { supabase }) => {
      const answer = await removeMute(supabase, id);
      if (answer.ok) revalidatePath("/account");
      return answer;
    },
    { sessionEnded: muteSessionEnded },
  );
}
