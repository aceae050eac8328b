import { type UploadRefusal, uploadRefusal } from "../storage/upload";

// Room-cover rules the browser checks before uploading; the room-covers bucket enforces the same
// (config.toml), and its policies let only the room's owner and moderators write `{room id}/…`.
export const coverBucket = "room-covers";
const coverMaxBytes = 5 * 1024 * 1024;
export const coverTypes = ["image/png", "image/jpeg", "image/webp"] as const;

const coverMessages = {
  wrongType: "Covers can be PNG, JPEG or WebP",
  tooLarge: "Covers up to 5 MB",
  empty: "That file is empty",
  denied: "Only the room's owner and moderators can change its cover.",
  failed: "The upload failed — try again.",
} as const;

const extensions: Record<(typeof coverTypes)[number], string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

export function checkCoverFile(file: { size: number; type: string }): string | null {
  if (!(coverTypes as readonly string[]).includes(file.type)) return coverMessages.wrongType;
  if (file.size > coverMaxBytes) return coverMessages.tooLarge;
  if (file.size === 0) return coverMessages.empty;
  return null;
}

/** A new object name per upload, in the room's folder, so caches never show the old cover. */
export function coverObjectPath(roomId: string, type: string, now = Date.now()): string {
  return `${roomId}/cover-${now}.${extensions[type as keyof typeof extensions] ?? "img"}`;
}

/** Whether a path names a cover file in this room's folder (the only paths rooms.cover_path takes). */
export function isCoverPathOf(roomId: string, path: string): boolean {
  return path.startsWith(`${roomId}/`) && path.length > roomId.length + 1 && !path.includes("..") && !path.slice(roomId.length + 1).includes("/");
}

const refusalMessages: Record<UploadRefusal, string> = {
  "too-large": coverMessages.tooLarge,
  "wrong-type": coverMessages.wrongType,
  denied: coverMessages.denied,
  failed: coverMessages.failed,
};

/** What a failed upload means for the person, from Storage's answer; null when it was accepted. */
export function coverUploadProblem(status: number, body: string): string | null {
  const refusal = uploadRefusal(status, body);
  return refusal ? refusalMessages[refusal] : null;
}
