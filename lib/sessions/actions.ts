"use server";

import { redirect } from "next/navigation";
import { sessionEndedThen } from "@/lib/messages";
import { prelude } from "@/lib/server-action";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import type { StartSessionState } from "./form-state";
import { recentPostsQueued } from "./rpc";

const roomGone = "This room doesn't exist any more — it may have been deleted.";
const startInput = z.object({ roomId: uuidField(roomGone), slug: z.string(roomGone).regex(/^[a-z0-9-]{1,64}$/, roomGone) });

/**
 * "Start listening together": starts the room's session with the person as host (the database
 * decides who may), then opens the session page. Refusals come back in the database's words.
 */
export async function startSessionAction(_previous: StartSessionState, formData: FormData): Promise<StartSessionState> {
  const started = await prelude(
    startInput,
    { roomId: formData.get("roomId"), slug: formData.get("slug") },
    { sessionEnded: sessionEndedThen("start") },
  );
  if (!started.ok) return { status: "error", message: started.error.message };
  const { supabase, input } = started.data;
  // The room's newest posts start as the queue (Postgres chooses them: lib/sessions/rpc.ts).
  const { error } = await supabase.rpc("start_listening_session", { room_id: input.roomId, queue_recent: recentPostsQueued });
  if (error) {
    // PT409: someone started one a moment ago — join it instead.
    if (error.code === "PT409" || /already on/.test(error.message))
      return { status: "error", message: "A session is already on in this room — join it.", live: true };
    if (error.code === "42501") return { status: "error", message: error.message.endsWith(".") ? error.message : `${error.message}.` };
    return { status: "error", message: "We couldn't start the session — try again in a moment." };
  }
  redirect(`/r/${input.slug}/listen`);
}
