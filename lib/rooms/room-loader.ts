// The room a `/r/[slug]` request is about, loaded once per request: the layout starts the load, and
// each page and its generateMetadata read the same answer (React's cache is scoped to one request).
import { cache } from "react";
import { getCurrentUser, type CurrentUser } from "@/lib/auth/current-user";
import { createClient } from "@/lib/supabase/server";
import { noAccess, roomAccess, type RoomAccess } from "./access.ts";
import { freshMembership } from "./membership-freshness.ts";
import { getRoomBySlug, type QueryResult, type RoomDetails } from "./queries.ts";

export interface LoadedRoom {
  /** This request's server client, for the page's further reads. */
  supabase: Awaited<ReturnType<typeof createClient>>;
  /** The signed-in caller (the same answer the header has), or null. */
  user: CurrentUser | null;
  /** The room with its gate, owner and the caller's membership as stored; not_found or unavailable. */
  result: QueryResult<RoomDetails>;
}

/**
 * The room at `slug` with the caller's stored membership, once per request. It never checks a
 * gated membership again (that can end it): pages about to show the room's content ask
 * `loadRoomAccess` for that.
 */
export const loadRoom = cache(async (slug: string): Promise<LoadedRoom> => {
  const [supabase, user] = await Promise.all([createClient(), getCurrentUser()]);
  return { supabase, user, result: await getRoomBySlug(supabase, slug, user?.id ?? null) };
});

/** Starts `loadRoom` without waiting for it or failing: whoever reads it next gets its answer or its error. */
export function preloadRoom(slug: string): void {
  loadRoom(slug).catch(() => undefined);
}

/**
 * What the caller may read in the room at `slug`, once per request: a gated membership whose
 * balance check is over an hour old is checked again first (and may end). A room that did not load
 * (see `loadRoom`'s result for why) grants nothing.
 */
export const loadRoomAccess = cache(async (slug: string): Promise<RoomAccess> => {
  const { supabase, result } = await loadRoom(slug);
  if (!result.ok) return noAccess;
  const { room, membership } = result.data;
  return roomAccess(room, await freshMembership(supabase, room, membership));
});
