import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/types/database";

/** How long a file may sit in the media bucket without a post before it counts as abandoned. */
const orphanGrace = "1 hour";

/**
 * Deletes files that never became a post (uploads cancelled or failed without cleaning up after
 * themselves, tabs closed mid-upload) once they are older than the grace period, through the Storage
 * API so their bytes go too. Runs with the service role, after a member starts a new upload.
 * Returns how many it removed.
 */
export async function removeOrphanUploads(admin: SupabaseClient<Database>, grace = orphanGrace): Promise<number> {
  const { data: names, error } = await admin.rpc("media_orphan_uploads", { grace, max_files: 100 });
  if (error || !names?.length) return 0;
  const { data: removed } = await admin.storage.from("media").remove(names);
  return removed?.length ?? 0;
}
