import { useRef, useState } from "react";
import { loadSupabase } from "@/lib/supabase/browser-clients";
import { type UploadBucket, uploadMessages } from "@/lib/storage/buckets";
import type { UploadDestination, UploadResult } from "@/lib/storage/upload";

/** The session's access token, for an upload into a bucket on the person's own rights. */
async function sessionAccessToken(): Promise<string | null> {
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}

export interface Uploader {
  /** From 0 to 1 while an upload runs (and while what follows it is saved); null otherwise. */
  progress: number | null;
  /** The upload starts before its file is sent (the steps that prepare it show as busy too), with a fresh cancel. */
  begin: () => void;
  /** Whether the person cancelled since the upload began. */
  cancelled: () => boolean;
  /** Sends the file (the progress shows from its first byte, if not since `begin`). */
  send: (file: File, destination: UploadDestination) => Promise<UploadResult>;
  /** Stops the file on its way, or keeps it from being sent. */
  cancel: () => void;
  /** The upload and what follows it are over: the progress goes. */
  finish: () => void;
  /**
   * The avatar's and the cover's flow, once the file passed `checkUploadFile`: stored in the bucket at
   * `path` on the person's session, then `save` points the profile or the room at it. The file picker
   * is emptied afterwards, so the same file can be chosen again.
   */
  storeAndSave: (
    file: File,
    target: { bucket: UploadBucket; path: string; save: (path: string) => Promise<{ ok: true } | { ok: false; error: string }> },
  ) => Promise<Stored>;
}

/** Saved; cancelled (nothing to say); or what went wrong, in words. */
export type Stored = { status: "saved" } | { status: "cancelled" } | { status: "refused"; error: string };

/** One upload at a time from a form: its progress, its cancel, and Storage's refusals in words. */
export function useUpload(fileInput?: { readonly current: HTMLInputElement | null }): Uploader {
  const [progress, setProgress] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  const begin = () => {
    controller.current = new AbortController();
    setProgress(0);
  };
  const cancelled = () => controller.current?.signal.aborted ?? false;
  const send = async (file: File, destination: UploadDestination): Promise<UploadResult> => {
    const signal = (controller.current ??= new AbortController()).signal;
    // The sending code comes with the first file sent, not with the form.
    const sender = await import("@/lib/storage/upload").catch(() => null);
    if (!sender) return { ok: false, reason: "unreachable", error: uploadMessages.unreachable };
    return sender.uploadFile(file, destination, { accessToken: sessionAccessToken, signal, onProgress: setProgress });
  };
  const cancel = () => controller.current?.abort();
  const finish = () => {
    controller.current = null;
    setProgress(null);
  };

  const storeAndSave: Uploader["storeAndSave"] = async (file, { bucket, path, save }) => {
    try {
      const sent = await send(file, { bucket, path });
      if (!sent.ok) return sent.reason === "cancelled" ? { status: "cancelled" } : { status: "refused", error: sent.error };
      const saved = await save(path);
      return saved.ok ? { status: "saved" } : { status: "refused", error: saved.error };
    } catch {
      return { status: "refused", error: uploadMessages.unreachable };
    } finally {
      finish();
      if (fileInput?.current) fileInput.current.value = "";
    }
  };

  return { progress, begin, cancelled, send, cancel, finish, storeAndSave };
}
