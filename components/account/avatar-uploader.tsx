"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { setAvatar } from "@/lib/account/actions";
import { Avatar } from "@/components/avatar";
import { UploadProgress } from "@/components/storage/upload-progress";
import { useUpload } from "@/components/storage/use-upload";
import { Alert } from "@/components/ui/alert";
import { acceptedTypes, avatarObjectPath, checkUploadFile } from "@/lib/storage/buckets";

/** Uploads straight to Storage (with progress), then the server action points the profile at it. */
export function AvatarUploader({ userId, name, currentPath }: { userId: string; name: string; currentPath: string | null }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const { progress, storeAndSave } = useUpload(input);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function upload(file: File) {
    setError(null);
    setSaved(false);
    const invalid = checkUploadFile("avatars", file);
    if (invalid) return setError(invalid);
    const stored = await storeAndSave(file, { bucket: "avatars", path: avatarObjectPath(userId, file.type), save: setAvatar });
    if (stored.status === "refused") return setError(stored.error);
    if (stored.status !== "saved") return;
    setSaved(true);
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-4">
        <Avatar path={currentPath} name={name} size={72} />
        <div className="flex min-w-0 flex-col gap-2">
          <label htmlFor="avatar" className="text-sm font-medium">
            Profile picture
          </label>
          <input
            ref={input}
            id="avatar"
            type="file"
            accept={acceptedTypes("avatars")}
            aria-describedby="avatar-hint"
            className="w-full min-w-0 text-sm file:mr-3 file:rounded-lg file:border file:border-line file:bg-raised file:px-3 file:py-2 file:text-ink"
            disabled={progress !== null}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
          <p id="avatar-hint" className="text-sm text-muted">
            PNG, JPEG, WebP or GIF, up to 2 MB.
          </p>
        </div>
      </div>
      {progress !== null ? <UploadProgress fraction={progress} /> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {saved ? <Alert tone="success">New picture saved.</Alert> : null}
    </div>
  );
}
