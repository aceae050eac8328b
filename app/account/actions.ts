"use server";

import { textMessages } from "@/lib/validation/text";
import { revalidatePath } from "next/cache";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { type FieldErrors, type ProfileInput, fieldErrors, profileMessages, profileSchema } from "@/lib/validation/profile";

export interface ProfileFormState {
  status: "idle" | "saved" | "error";
  values: ProfileInput;
  errors: FieldErrors<ProfileInput>;
  message?: string;
}

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

export async function updateProfile(_previous: ProfileFormState, formData: FormData): Promise<ProfileFormState> {
  const values = {
    username: String(formData.get("username") ?? ""),
    displayName: String(formData.get("displayName") ?? ""),
    bio: String(formData.get("bio") ?? ""),
  };
  const parsed = profileSchema.safeParse(values);
  if (!parsed.success) return { status: "error", values, errors: fieldErrors(parsed.error) };

  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { status: "error", values, errors: {}, message: "Your session has ended — sign in again to save your profile." };

  const { data, error } = await supabase
    .from("profiles")
    .update({ username: parsed.data.username, display_name: parsed.data.displayName, bio: parsed.data.bio })
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
  if (!data?.length) return { status: "error", values, errors: {}, message: "Your session has ended — sign in again to save your profile." };
  revalidatePath("/", "layout");
  return { status: "saved", values: parsed.data, errors: {} };
}

export type AvatarResult = { ok: true } | { ok: false; error: string };

/** Points the profile at a newly uploaded avatar and removes the one it replaces. */
export async function setAvatar(path: string): Promise<AvatarResult> {
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { ok: false, error: "Your session has ended — sign in again." };
  if (typeof path !== "string" || !path.startsWith(`${userId}/`) || path.includes("..")) {
    return { ok: false, error: "That upload doesn't belong to your account." };
  }
  const { data: before } = await supabase.from("profiles").select("avatar_path").eq("id", userId).single();
  const { error } = await supabase.from("profiles").update({ avatar_path: path }).eq("id", userId);
  if (error) {
    await supabase.storage.from("avatars").remove([path]);
    return { ok: false, error: "We couldn't save your new picture — try again." };
  }
  if (before?.avatar_path && before.avatar_path !== path) await supabase.storage.from("avatars").remove([before.avatar_path]);
  revalidatePath("/", "layout");
  return { ok: true };
}
