// "New since your last visit" needs to know when a member last opened each of their rooms: the room
// page records it (public.mark_room_visited, for the caller, members only) as it renders for them.
// It is a read receipt rather than a change a person makes — the same render always leaves the same
// mark — so it is written on the page's own request instead of through a form, and never on a
// prefetch, which renders a page nobody has opened yet.
import { headers } from "next/headers";
import { loadRoom, loadRoomAccess } from "./room-loader.ts";

const prefetchHeaders = ["next-router-prefetch", "next-router-segment-prefetch"];

/**
 * Records that the signed-in caller opened the room at `slug` now, when they are a member once a
 * gated membership has been checked again (the same per-request loads the page reads). A failure
 * only leaves the previous visit standing.
 */
export async function recordRoomVisit(slug: string): Promise<void> {
  const request = await headers();
  if (prefetchHeaders.some((name) => request.has(name)) || request.get("purpose") === "prefetch") return;
  const [{ supabase, result }, access] = await Promise.all([loadRoom(slug), loadRoomAccess(slug)]);
  if (!result.ok || !access.membership) return;
  await supabase.rpc("mark_room_visited", { target_room: result.data.room.id });
}
