// The rules of every bucket the app uploads to: what each takes (checked before a byte is sent; the
// buckets enforce the same, supabase/config.toml), the words of its refusals, and where a new object
// goes. Sending, and reading Storage's answer, are ./upload.ts, loaded when a file is sent.
import { networkMessage } from "@/lib/auth/messages";
import { messages } from "@/lib/messages";

/** Each bucket's limits and the words of its refusals: the rules of its `[storage.buckets.*]` in config.toml (a unit test holds them equal). */
export const uploadBuckets = {
  avatars: {
    maxBytes: 2 * 1024 * 1024,
    types: ["image/png", "image/jpeg", "image/webp", "image/gif"],
    otherExtension: "img",
    tooLarge: "Pictures up to 2 MB",
    wrongType: "Pictures can be PNG, JPEG, WebP or GIF",
    /** Storage refused the person's token (their folder is the only one they may write). */
    denied: messages.sessionEnded,
  },
  "room-covers": {
    maxBytes: 5 * 1024 * 1024,
    types: ["image/png", "image/jpeg", "image/webp"],
    otherExtension: "img",
    tooLarge: "Covers up to 5 MB",
    wrongType: "Covers can be PNG, JPEG or WebP",
    /** The bucket's policies let only the room's owner and moderators write `{room id}/…`. */
    denied: "Only the room's owner and moderators can change its cover.",
  },
  media: {
    maxBytes: 50 * 1024 * 1024,
    types: ["audio/*", "video/*"],
    otherExtension: "bin",
    tooLarge: "Files up to 50 MB",
    wrongType: "Choose an audio or video file",
    denied: messages.sessionEnded,
  },
} as const satisfies Record<string, BucketRules>;

interface BucketRules {
  maxBytes: number;
  /** Exact types, or `kind/*` for any subtype of a kind. */
  types: readonly string[];
  /** The extension of an object whose type has none of its own here. */
  otherExtension: string;
  tooLarge: string;
  wrongType: string;
  denied: string;
}

export type UploadBucket = keyof typeof uploadBuckets;

/** The words every bucket shares. */
export const uploadMessages = {
  empty: "That file is empty",
  failed: "The upload failed — try again.",
  /** The request broke off on its way (the connection dropped). */
  stopped: "The upload stopped — check your connection and try again.",
  sessionEnded: messages.sessionEnded,
  /** The session client could not load (offline), so nothing was sent. */
  unreachable: networkMessage,
} as const;

function accepts(bucket: UploadBucket, type: string): boolean {
  return uploadBuckets[bucket].types.some((accepted) =>
    accepted.endsWith("/*") ? new RegExp(`^${accepted.slice(0, -2)}\\/[\\w.+-]+$`).test(type) : accepted === type,
  );
}

/** The file picker's `accept`: the bucket's types. */
export function acceptedTypes(bucket: UploadBucket): string {
  return uploadBuckets[bucket].types.join(",");
}

/** Why the bucket would refuse this file (its type, then its size), or null when it may be sent. */
export function checkUploadFile(bucket: UploadBucket, file: { size: number; type: string }): string | null {
  const rules = uploadBuckets[bucket];
  if (!accepts(bucket, file.type)) return rules.wrongType;
  if (file.size > rules.maxBytes) return rules.tooLarge;
  if (file.size === 0) return uploadMessages.empty;
  return null;
}

const extensions: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/ogg": "ogg",
  "audio/webm": "weba",
  "audio/flac": "flac",
  "audio/aac": "aac",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/ogg": "ogv",
  "video/quicktime": "mov",
};

function extensionOf(bucket: UploadBucket, type: string): string {
  return (accepts(bucket, type) && extensions[type]) || uploadBuckets[bucket].otherExtension;
}

/** An avatar's new name per upload, in the user's own folder, so caches never show the old picture. */
export function avatarObjectPath(userId: string, type: string, now = Date.now()): string {
  return `${userId}/avatar-${now}.${extensionOf("avatars", type)}`;
}

/** A cover's new name per upload, in the room's folder, so caches never show the old cover. */
export function coverObjectPath(roomId: string, type: string, now = Date.now()): string {
  return `${roomId}/cover-${now}.${extensionOf("room-covers", type)}`;
}

/** `{room_id}/{user_id}/{random}.{ext}`: the member's own folder of the room, a name no one can guess. */
export function mediaObjectPath(roomId: string, userId: string, type: string, random: string): string {
  return `${roomId}/${userId}/${random}.${extensionOf("media", type)}`;
}
