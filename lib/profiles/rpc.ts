import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { messages } from "@/lib/messages";
import { fail, type Result } from "@/lib/result";
import type { ActivityCursor, ActivityItem } from "./activity";
import { getProfileActivity } from "./queries";

/** The next page of a profile's posts and comments, read by the browser ("Show more"), signed in or not. */
export async function fetchProfileActivity(profileId: string, cursor: ActivityCursor): Promise<Result<ActivityItem[]>> {
  try {
    return await getProfileActivity(await loadSupabaseData(), profileId, cursor);
  } catch {
    return fail(messages.unreachable);
  }
}
