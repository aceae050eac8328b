"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { removeRoomCover, setRoomCover } from "@/lib/rooms/actions";
import { RoomCover } from "@/components/rooms/room-cover";
import { UploadProgress } from "@/components/storage/upload-progress";
import { useUpload } from "@/components/storage/use-upload";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { networkMessage } from "@/lib/auth/messages";
import { coverBucket } from "@/lib/rooms/covers";
import { acceptedTypes, checkUploadFile, coverObjectPath } from "@/lib/storage/buckets";

/** Uploads the cover straight to Storage (with progress), then the server action points the room at it. */
export function CoverUploader({ roomId, roomName, currentPath }: { roomId: string; roomName: string; currentPath: string | null }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const { progress, storeAndSave } = useUpload(input);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function upload(file: File) {
    setError(null);
    setNotice(null);
    const invalid = checkUploadFile(coverBucket, file);
    if (invalid) return setError(invalid);
    const stored = await storeAndSave(file, {
      bucket: coverBucket,
      path: coverObjectPath(roomId, file.type),
      save: (path) => setRoomCover(roomId, path),
    });
    if (stored.status === "refused") return setError(stored.error);
    if (stored.status !== "saved") return;
    setNotice("New cover saved.");
    router.refresh();
  }

  async function remove() {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      const removed = await removeRoomCover(roomId);
      if (!removed.ok) return setError(removed.error);
      setNotice("Cover removed.");
      router.refresh();
    } catch {
      setError(networkMessage);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Cover</h2>
      <RoomCover
        path={currentPath}
        name={roomName}
        size={{ maxWidth: 736 }}
        sizes="(min-width: 768px) 736px, calc(100vw - 32px)"
        className="aspect-[4/1] rounded-xl border border-line max-sm:aspect-[5/2]"
      />
      <div className="flex flex-col gap-2">
        <label htmlFor="cover" className="text-sm font-medium">
          Cover picture
        </label>
        <input
          ref={input}
          id="cover"
          type="file"
          accept={acceptedTypes(coverBucket)}
          aria-describedby="cover-hint"
          className="w-full min-w-0 text-sm file:mr-3 file:rounded-lg file:border file:border-line file:bg-raised file:px-3 file:py-2 file:text-ink"
          disabled={progress !== null || busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <p id="cover-hint" className="text-sm text-muted">
          PNG, JPEG or WebP, up to 5 MB. A wide picture looks best.
        </p>
      </div>
      {progress !== null ? <UploadProgress fraction={progress} /> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {currentPath ? (
        <div>
          <Button variant="secondary" onClick={() => void remove()} disabled={progress !== null || busy}>
            {busy ? "Removing…" : "Remove cover"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
