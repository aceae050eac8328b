import { isMuted } from "@/lib/notifications/settings-data";
import type { MuteTarget } from "@/lib/notifications/settings";
import { createClient } from "@/lib/supabase/server";
import { LazyMuteToggle } from "./lazy-parts";

/**
 * "Mute notifications from this room" on a room's page, "Mute this thread" on a post's: shown only to
 * a signed-in person who may read the room (muting what you can't read would mean nothing).
 */
export async function MuteButton({ target, show }: { target: MuteTarget; show: boolean }) {
  if (!show) return null;
  const muted = await isMuted(await createClient(), target);
  return <LazyMuteToggle target={target} initialMuted={muted} />;
}
