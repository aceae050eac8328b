// `npm run media:waveforms`: waveforms for the uploads that have none — posted before waveforms
// existed, or whose browser could not compute one in time. Each file is read from Storage with the
// service role and decoded as the upload form decodes it (./waveform-decoder.ts); the waveform is
// written only where there still is none, so a run can stop at any point and be run again.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "../types/database.ts";
import type { WaveformDecoder } from "./waveform-decoder.ts";

export interface BackfillRun {
  /** Waveforms written. */
  added: number;
  /** Files that could not be read or decoded (they play as before, with the plain bar). */
  failed: number;
}

const pageSize = 50;

export async function backfillWaveforms(
  admin: SupabaseClient<Database>,
  decoder: Pick<WaveformDecoder, "peaks">,
  { log = () => {}, roomId }: { log?: (line: string) => void; roomId?: string } = {},
): Promise<BackfillRun> {
  const run: BackfillRun = { added: 0, failed: 0 };
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    let query = admin.from("posts").select("id, storage_path").eq("media_kind", "upload").is("waveform", null).gt("id", after);
    if (roomId) query = query.eq("room_id", roomId);
    const { data: posts, error } = await query.order("id").limit(pageSize);
    if (error) throw new Error(`could not list the uploads without a waveform: ${error.message}`);
    for (const post of posts) {
      after = post.id;
      const waveform = post.storage_path ? await waveformOf(admin, decoder, post.storage_path) : null;
      if (!waveform) {
        run.failed++;
        log(`post ${post.id}: no waveform (its file could not be read or decoded)`);
        continue;
      }
      const { error: saveError } = await admin.from("posts").update({ waveform }).eq("id", post.id).is("waveform", null);
      if (saveError) {
        run.failed++;
        log(`post ${post.id}: the waveform was not saved: ${saveError.message}`);
      } else run.added++;
    }
    if (posts.length < pageSize) return run;
  }
}

async function waveformOf(admin: SupabaseClient<Database>, decoder: Pick<WaveformDecoder, "peaks">, storagePath: string) {
  const { data: file } = await admin.storage.from("media").download(storagePath);
  if (!file) return null;
  return decoder.peaks(new Uint8Array(await file.arrayBuffer())).catch(() => null);
}

export const describeBackfill = (run: BackfillRun) => `waveforms: ${run.added} added, ${run.failed} without one`;
