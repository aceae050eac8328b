import { type UploadRefusal, uploadRefusal } from "./storage/upload";

// Avatar rules the browser checks before uploading; the bucket enforces the same (config.toml).
const avatarMaxBytes = 2 * 1024 * 1024;
export const avatarTypes = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

const extensions: Record<(typeof avatarTypes)[number], string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

export function checkAvatarFile(file: { size: number; type: string }): string | null {
  if (!(avatarTypes as readonly string[]).includes(file.type)) return "Pictures can be PNG, JPEG, WebP or GIF";
  if (file.size > avatarMaxBytes) return "Pictures up to 2 MB";
  if (file.size === 0) return "That file is empty";
  return null;
}

/** A new object name per upload, in the user's own folder, so caches never show the old picture. */
export function avatarObjectPath(userId: string, type: string, now = Date.now()): string {
  return `${userId}/avatar-${now}.${extensions[type as keyof typeof extensions] ?? "img"}`;
}

const refusalMessages: Record<UploadRefusal, string> = {
  "too-large": "Pictures up to 2 MB",
  "wrong-type": "Pictures can be PNG, JPEG, WebP or GIF",
  denied: "Your session has ended — sign in again.",
  failed: "The upload failed — try again.",
};

/** What a failed upload means for the person, from Storage's answer. */
export function avatarUploadProblem(status: number, body: string): string | null {
  const refusal = uploadRefusal(status, body);
  return refusal ? refusalMessages[refusal] : null;
}
