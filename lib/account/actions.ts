"use server";

// The account page's writes: the profile's fields and its picture. Two-factor authentication and the
// password are Supabase Auth's (lib/auth/actions.ts).
import { revalidatePath } from "next/cache";
import { sessionEndedTo } from "@/lib/messages";
import { type Result, fail, ok } from "@/lib/result";
import { action, prelude, refusedForm } from "@/lib/server-action";
import { type ProfileInput, profileMessages, profileSchema } from "@/lib/validation/profile";
import { textMessages } from "@/lib/validation/text";
import { z } from "@/lib/validation/zod";
import type { ProfileFormState, WelcomeFormState } from "./form-state";

/** Postgres constraint → the field and words the form shows. */
const constraintMessages: Record<string, [keyof ProfileInput, string]> = {
  profiles_username_key: ["username", profileMessages.usernameTaken],
  profiles_username_format: ["username", profileMessages.usernameFormat],
  profiles_username_not_reserved: ["username", profileMessages.usernameReserved],
  profiles_display_name_length: ["displayName", profileMessages.displayNameTooLong],
  profiles_bio_length: ["bio", profileMessages.bioTooLong],
  profiles_display_name_characters: ["displayName", textMessages.lineCharacters],
  profiles_bio_characters: ["bio", textMessages.bodyCharacters],
};

const profileSessionEnded = sessionEndedTo("save your profile");

export async function updateProfile(_previous: ProfileFormState, formData: FormData): Promise<ProfileFormState> {
  const values = {
    username: String(formData.get("username") ?? ""),
    displayName: String(formData.get("displayName") ?? ""),
    bio: String(formData.get("bio") ?? ""),
  };
  const started = await prelude(profileSchema, values, { sessionEnded: profileSessionEnded });
  if (!started.ok) return { ...refusedForm(started.error), values };
  const { supabase, userId, input } = started.data;

  const { data, error } = await supabase
    .from("profiles")
    .update({ username: input.username, display_name: input.displayName, bio: input.bio })
    .eq("id", userId)
    .select("id");
  if (error) {
    const constraint = Object.keys(constraintMessages).find((name) => error.message.includes(name) || error.details?.includes(name));
    if (constraint) {
      const [field, message] = constraintMessages[constraint];
      return { status: "error", values, errors: { [field]: message } };
    }
    return { status: "error", values, errors: {}, message: "We couldn't save your profile — try again in a moment." };
  }
  if (!data?.length) return { status: "error", values, errors: {}, message: profileSessionEnded };
  revalidatePath("/", "layout");
  return { status: "saved", values: input, errors: {} };
}

const welcomeSessionEnded = sessionEndedTo("choose your name");
const namesSchema = z.object({ username: profileSchema.shape.username, displayName: profileSchema.shape.displayName });

/** The first visit's step: the username and display name, which sign-up made from the email, chosen by the person. */
export async function saveWelcomeNames(_previous: WelcomeFormState, formData: FormData): Promise<WelcomeFormState> {
  const values = { username: String(formData.get("username") ?? ""), displayName: String(formData.get("displayName") ?? "") };
  const started = await prelude(namesSchema, values, { sessionEnded: welcomeSessionEnded });
  if (!started.ok) return { ...refusedForm(started.error), values };
  const { supabase, userId, input } = started.data;
  const { data, error } = await supabase
    .from("profiles")
    .update({ username: input.username, display_name: input.displayName })
    .eq("id", userId)
    .select("id");
  if (error) {
    const constraint = Object.keys(constraintMessages).find((name) => error.message.includes(name) || error.details?.includes(name));
    const [field, message] = constraint ? constraintMessages[constraint] : [];
    if (field === "username" || field === "displayName") return { status: "error", values, errors: { [field]: message } };
    return { status: "error", values, errors: {}, message: "We couldn't save your name — try again in a moment." };
  }
  if (!data?.length) return { status: "error", values, errors: {}, message: welcomeSessionEnded };
  revalidatePath("/", "layout");
  return { status: "saved", values: input, errors: {} };
}

const notYourUpload = "That upload doesn't belong to your account.";

/** Points the profile at a newly uploaded avatar and removes the one it replaces. */
export async function setAvatar(path: string): Promise<Result> {
  return action(z.string(notYourUpload), path, async (path, { supabase, userId }) => {
    if (!path.startsWith(`${userId}/`) || path.includes("..")) return fail(notYourUpload);
    const { data: before } = await supabase.from("profiles").select("avatar_path").eq("id", userId).single();
    const { error } = await supabase.from("profiles").update({ avatar_path: path }).eq("id", userId);
    if (error) {
      await supabase.storage.from("avatars").remove([path]);
      return fail("We couldn't save your new picture — try again.");
    }
    if (before?.avatar_path && before.avatar_path !== path) await supabase.storage.from("avatars").remove([before.avatar_path]);
    revalidatePath("/", "layout");
    return ok();
  });
}
