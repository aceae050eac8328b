"use server";

import { revalidatePath } from "next/cache";
import { joinRoom } from "@/lib/rooms/join";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";

export interface MembershipFormState {
  status: "idle" | "joined" | "left" | "error";
  message?: string;
  /** The refusal is about wallets: the form links to /account to link one. */
  linkWallet?: boolean;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sessionEnded: MembershipFormState = { status: "error", message: "Your session has ended — sign in again, then join." };
const roomGone: MembershipFormState = { status: "error", message: "This room doesn't exist any more — it may have been deleted." };
const failed = (doing: string): MembershipFormState => ({ status: "error", message: `We couldn't ${doing} — try again in a moment.` });

function roomIdOf(formData: FormData): string | null {
  const id = formData.get("roomId");
  return typeof id === "string" && uuidPattern.test(id) ? id : null;
}

/**
 * Join: an open room by inserting the person's own membership through the data API (the policy
 * allows it for public rooms only); a gated room through the join-room function, which reads the
 * person's linked wallets on chain and answers with the reason when none holds enough.
 */
export async function joinRoomAction(_previous: MembershipFormState, formData: FormData): Promise<MembershipFormState> {
  const roomId = roomIdOf(formData);
  if (!roomId) return roomGone;
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return sessionEnded;

  const { data: room, error: readError } = await supabase.from("rooms").select("id, slug, visibility").eq("id", roomId).maybeSingle();
  if (readError) return failed("join this room");
  if (!room) return roomGone;

  if (room.visibility === "public") {
    const { error } = await supabase.from("memberships").insert({ room_id: room.id, user_id: userId });
    // 23505: already a member (another tab, a double click) — the outcome asked for.
    if (error && error.code !== "23505") return failed("join this room");
  } else {
    const joined = await joinRoom(supabase, room.id);
    if (!joined.ok) {
      return { status: "error", message: joined.error.error, linkWallet: joined.error.code === "no_wallet" || joined.error.code === "not_enough_tokens" };
    }
  }
  revalidatePath(`/r/${room.slug}`);
  revalidatePath("/");
  return { status: "joined" };
}

/** Leave: the person deletes their own membership (the policy never lets the owner leave). */
export async function leaveRoomAction(_previous: MembershipFormState, formData: FormData): Promise<MembershipFormState> {
  const roomId = roomIdOf(formData);
  if (!roomId) return roomGone;
  const supabase = await createClient();
  const userId = await verifiedUserId(supabase);
  if (!userId) return { status: "error", message: "Your session has ended — sign in again, then leave." };

  const { data: room } = await supabase.from("rooms").select("slug").eq("id", roomId).maybeSingle();
  const { data, error } = await supabase.from("memberships").delete().eq("room_id", roomId).eq("user_id", userId).select("role");
  if (error) return failed("take you out of this room");
  if (!data.length) {
    const { data: own } = await supabase.from("memberships").select("role").eq("room_id", roomId).eq("user_id", userId).maybeSingle();
    if (own?.role === "owner") return { status: "error", message: "You own this room, so you can't leave it." };
  }
  if (room) revalidatePath(`/r/${room.slug}`);
  revalidatePath("/");
  return { status: "left" };
}
