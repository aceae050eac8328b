"use server";

import { redirect } from "next/navigation";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";

export interface StartSessionState {
  status: "idle" | "error";
  message?: string;
  /** A session is on already: the form links to it. */
  live?: boolean;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const slugPattern = /^[a-z0-9-]{1,64}$/;

/**
 * "Start listening together": starts the room's session with the person as host (the database
 * decides who may), then opens the session page. Refusals come back in the database's words.
 */
export async function startSessionAction(_previous: StartSessionState, formData: FormData): Promise<StartSessionState> {
  const roomId = formData.get("roomId");
  const slug = formData.get("slug");
  if (typeof roomId !== "string" || !uuidPattern.test(roomId) || typeof slug !== "string" || !slugPattern.test(slug)) {
    return { status: "error", message: "This room doesn't exist any more — it may have been deleted." };
  }
  const supabase = await createClient();
  if (!(await verifiedUserId(supabase))) return { status: "error", message: "Your session has ended — sign in again, then start." };
  const { error } = await supabase.rpc("start_listening_session", { room_id: roomId });
  if (error) {
    // PT409: someone started one a moment ago — join it instead.
    if (error.code === "PT409" || /already on/.test(error.message)) return { status: "error", message: "A session is already on in this room — join it.", live: true };
    if (error.code === "42501") return { status: "error", message: error.message.endsWith(".") ? error.message : `${error.message}.` };
    return { status: "error", message: "We couldn't start the session — try again in a moment." };
  }
  redirect(`/r/${slug}/listen`);
}
