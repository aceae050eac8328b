"use client";

import { loadSupabase } from "@/lib/supabase/browser-clients";
import { networkMessage } from "@/lib/auth/messages";
import { publicConfig } from "@/lib/public-config";
import { uploadWithProgress } from "@/lib/storage/upload";

/**
 * Uploads a file straight from the browser to `bucket/path` on the person's session, reporting
 * progress from 0 to 1. Returns null once Storage has the file, or what went wrong in words
 * (`describeRefusal` words Storage's refusals for what is being uploaded).
 */
export async function uploadToBucket(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
  describeRefusal: (status: number, body: string) => string | null,
): Promise<string | null> {
  const supabase = await loadSupabase().catch(() => null);
  if (!supabase) return networkMessage;
  const { data } = await supabase.auth.getSession();
  if (!data.session) return "Your session has ended — sign in again.";
  onProgress(0);
  try {
    const result = await uploadWithProgress(
      `${publicConfig.supabaseUrl}/storage/v1/object/${bucket}/${path}`,
      { Authorization: `Bearer ${data.session.access_token}`, apikey: publicConfig.supabaseKey, "Content-Type": file.type, "x-upsert": "false" },
      file,
      onProgress,
    );
    return describeRefusal(result.status, result.body);
  } catch {
    return "The upload stopped — check your connection and try again.";
  }
}

/** The bar and percentage shown while an upload runs. */
export function UploadProgress({ fraction }: { fraction: number }) {
  return (
    <div className="flex items-center gap-3">
      <progress className="h-2 w-full accent-accent" max={1} value={fraction} aria-label="Upload progress" />
      <span className="w-12 text-right text-sm tabular-nums text-muted">{Math.round(fraction * 100)}%</span>
    </div>
  );
}
