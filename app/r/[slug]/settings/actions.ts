"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { coverBucket, isCoverPathOf } from "@/lib/rooms/covers";
import { roomWriteError, unreachable } from "@/lib/rooms/write-errors";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { fieldErrors } from "@/lib/validation/profile";
import { roomSettingsSchema, type RoomSettingsFields } from "@/lib/rooms/settings-fields";
import type { SessionStarters } from "@/lib/rooms/session-starters";
import { sessionStartersSchema } from "@/lib/validation/room";

// The settings page's writes. Each runs as the signed-in person through the server client, so
// Postgres (row-level security, the rooms migration's guards, the room-covers policies) decides;
// what it refuses comes back as a sentence. Every form keeps what was typed: these return the
// values they were given, and the forms never remount their fields from them.

export type ActionResult = { ok: true } | { ok: false; error: string };

const sessionEnded = "Your session has ended — sign in again.";
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function signedIn() {
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  return { supabase, user: userId ? { id: userId } : null };
}

async function roomSlug(supabase: Awaited<ReturnType<typeof createClient>>, roomId: string): Promise<string | null> {
  const { data } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  return data?.slug ?? null;
}

export interface RoomFieldsState {
  status: "idle" | "saved" | "error";
  values: RoomSettingsFields;
  errors: Partial<Record<keyof RoomSettingsFields, string>>;
  message?: string;
}

/**
 * Name and description (owner and moderators), address (owner only: the form sends it only to the
 * owner, and Postgres refuses anyone else's change). A new address moves the page to it.
 */
export async function updateRoomFields(roomId: string, _previous: RoomFieldsState, formData: FormData): Promise<RoomFieldsState> {
  const values: RoomSettingsFields = {
    name: String(formData.get("name") ?? ""),
    description: String(formData.get("description") ?? ""),
    ...(formData.has("slug") ? { slug: String(formData.get("slug") ?? "") } : {}),
  };
  const parsed = roomSettingsSchema.safeParse(values);
  if (!parsed.success) return { status: "error", values, errors: fieldErrors(parsed.error) };
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { status: "error", values, errors: {}, message: "This room no longer exists." };
  const { supabase, user } = await signedIn();
  if (!user) return { status: "error", values, errors: {}, message: sessionEnded };

  const before = await roomSlug(supabase, roomId);
  const changes = { name: parsed.data.name, description: parsed.data.description, ...(parsed.data.slug !== undefined && parsed.data.slug !== before ? { slug: parsed.data.slug } : {}) };
  const { data, error } = await supabase.from("rooms").update(changes).eq("id", roomId).select("slug");
  if (error) {
    const problem = roomWriteError(error, "We couldn't save the room — try again in a moment.");
    return problem.field ? { status: "error", values, errors: { [problem.field]: problem.message } } : { status: "error", values, errors: {}, message: problem.message };
  }
  if (!data?.length) return { status: "error", values, errors: {}, message: "Only the room's owner and moderators can edit it." };
  revalidatePath("/");
  if (before) revalidatePath(`/r/${before}`, "layout");
  if (data[0].slug !== before) redirect(`/r/${data[0].slug}/settings?moved=1`);
  revalidatePath(`/r/${data[0].slug}`, "layout");
  return { status: "saved", values, errors: {} };
}

export interface SessionStartersState {
  status: "idle" | "saved" | "error";
  /** What the person chose (kept as sent, so the form shows their choice whatever the answer). */
  value: string;
  error?: string;
}

/** Owner only (the rooms trigger refuses anyone else's change): who may start listening sessions. */
export async function updateSessionStarters(roomId: string, _previous: SessionStartersState, formData: FormData): Promise<SessionStartersState> {
  const value = String(formData.get("sessionStarters") ?? "");
  const parsed = sessionStartersSchema.safeParse({ sessionStarters: value });
  if (!parsed.success) return { status: "error", value, error: parsed.error.issues[0].message };
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { status: "error", value, error: "This room no longer exists." };
  const { supabase, user } = await signedIn();
  if (!user) return { status: "error", value, error: sessionEnded };
  const starters: SessionStarters = parsed.data.sessionStarters;
  const { data, error } = await supabase.from("rooms").update({ session_starters: starters }).eq("id", roomId).select("slug");
  if (error) return { status: "error", value, error: roomWriteError(error, "We couldn't save who can start listening sessions — try again.").message };
  if (!data?.length) return { status: "error", value, error: "Only the room's owner decides who may start listening sessions." };
  revalidatePath(`/r/${data[0].slug}`, "layout");
  return { status: "saved", value };
}

/** Points the room at a newly uploaded cover and removes the one it replaces. */
export async function setRoomCover(roomId: string, path: string): Promise<ActionResult> {
  if (typeof roomId !== "string" || !uuid.test(roomId) || typeof path !== "string" || !isCoverPathOf(roomId, path)) {
    return { ok: false, error: "That upload doesn't belong to this room." };
  }
  const { supabase, user } = await signedIn();
  if (!user) return { ok: false, error: sessionEnded };
  const { data: before } = await supabase.from("rooms").select("slug, cover_path").eq("id", roomId).maybeSingle();
  const { data, error } = await supabase.from("rooms").update({ cover_path: path }).eq("id", roomId).select("slug");
  if (error || !data?.length) {
    await supabase.storage.from(coverBucket).remove([path]);
    if (error) return { ok: false, error: roomWriteError(error, "We couldn't save the new cover — try again.").message };
    return { ok: false, error: "Only the room's owner and moderators can change its cover." };
  }
  if (before?.cover_path && before.cover_path !== path) await supabase.storage.from(coverBucket).remove([before.cover_path]);
  revalidatePath(`/r/${data[0].slug}`, "layout");
  revalidatePath("/");
  return { ok: true };
}

/** Takes the cover off the room and removes its file. */
export async function removeRoomCover(roomId: string): Promise<ActionResult> {
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { ok: false, error: "That room doesn't exist." };
  const { supabase, user } = await signedIn();
  if (!user) return { ok: false, error: sessionEnded };
  const { data: before } = await supabase.from("rooms").select("cover_path").eq("id", roomId).maybeSingle();
  const { data, error } = await supabase.from("rooms").update({ cover_path: null }).eq("id", roomId).select("slug");
  if (error) return { ok: false, error: roomWriteError(error, "We couldn't remove the cover — try again.").message };
  if (!data?.length) return { ok: false, error: "Only the room's owner and moderators can change its cover." };
  if (before?.cover_path) await supabase.storage.from(coverBucket).remove([before.cover_path]);
  revalidatePath(`/r/${data[0].slug}`, "layout");
  revalidatePath("/");
  return { ok: true };
}

export type MemberRole = "moderator" | "member";

/** Owner only (Postgres' policy): a member becomes a moderator or back. */
export async function setMemberRole(roomId: string, userId: string, role: MemberRole): Promise<ActionResult> {
  if (![roomId, userId].every((id) => typeof id === "string" && uuid.test(id)) || (role !== "moderator" && role !== "member")) {
    return { ok: false, error: "That member isn't in this room." };
  }
  const { supabase, user } = await signedIn();
  if (!user) return { ok: false, error: sessionEnded };
  const { data, error } = await supabase.from("memberships").update({ role }).eq("room_id", roomId).eq("user_id", userId).select("role");
  if (error) return { ok: false, error: roomWriteError(error, "We couldn't change that role — try again.").message };
  if (!data?.length) return { ok: false, error: "Only the room's owner changes roles, and never their own." };
  const slug = await roomSlug(supabase, roomId);
  if (slug) revalidatePath(`/r/${slug}`, "layout");
  return { ok: true };
}

/** Moderators remove members; the owner removes anyone but themself (Postgres' policy). */
export async function removeMember(roomId: string, userId: string): Promise<ActionResult> {
  if (![roomId, userId].every((id) => typeof id === "string" && uuid.test(id))) return { ok: false, error: "That member isn't in this room." };
  const { supabase, user } = await signedIn();
  if (!user) return { ok: false, error: sessionEnded };
  const { data, error } = await supabase.from("memberships").delete().eq("room_id", roomId).eq("user_id", userId).select("user_id");
  if (error) return { ok: false, error: roomWriteError(error, "We couldn't remove that member — try again.").message };
  if (!data?.length) return { ok: false, error: "You can't remove this person: moderators remove members, and only the owner removes moderators." };
  const slug = await roomSlug(supabase, roomId);
  if (slug) revalidatePath(`/r/${slug}`, "layout");
  revalidatePath("/");
  return { ok: true };
}

export interface DeleteRoomState {
  confirmation: string;
  error?: string;
}

/**
 * Owner only, after typing the room's address. The cover files go first, through Storage, while the
 * owner's membership still lets them (the room's folder policies ask who the room's owner is).
 */
export async function deleteRoom(roomId: string, _previous: DeleteRoomState, formData: FormData): Promise<DeleteRoomState> {
  const confirmation = String(formData.get("confirmation") ?? "");
  if (typeof roomId !== "string" || !uuid.test(roomId)) return { confirmation, error: "That room doesn't exist." };
  const { supabase, user } = await signedIn();
  if (!user) return { confirmation, error: sessionEnded };
  const { data: room, error: readError } = await supabase.from("rooms").select("slug, owner_id").eq("id", roomId).maybeSingle();
  if (readError) return { confirmation, error: unreachable };
  if (!room) return { confirmation, error: "This room no longer exists." };
  if (confirmation.trim() !== room.slug) return { confirmation, error: `Type ${room.slug} to confirm.` };
  if (room.owner_id !== user.id) return { confirmation, error: "Only the room's owner can delete it." };

  const removed = await removeRoomFolder(supabase, roomId);
  if (!removed) return { confirmation, error: "We couldn't remove the room's cover — try again in a moment." };
  const { data, error } = await supabase.from("rooms").delete().eq("id", roomId).select("id");
  if (error) return { confirmation, error: roomWriteError(error, "We couldn't delete the room — try again.").message };
  if (!data?.length) return { confirmation, error: "Only the room's owner can delete it." };
  revalidatePath("/");
  redirect("/");
}

/** Removes every object under `{room id}/` in the covers bucket; false when Storage refused. */
async function removeRoomFolder(supabase: Awaited<ReturnType<typeof createClient>>, roomId: string): Promise<boolean> {
  for (;;) {
    const { data, error } = await supabase.storage.from(coverBucket).list(roomId, { limit: 1000 });
    if (error) return false;
    if (!data.length) return true;
    const { data: gone, error: removeError } = await supabase.storage.from(coverBucket).remove(data.map((item) => `${roomId}/${item.name}`));
    if (removeError || !gone.length) return false;
  }
}
