// Uploads from the browser to Storage, for every bucket the app writes to: what each bucket takes
// (checked here before a byte is sent; the buckets enforce the same, supabase/config.toml), where a new
// object goes, the request with its progress and cancel, and Storage's refusals in words.
import { networkMessage } from "@/lib/auth/messages";
import { messages } from "@/lib/messages";
import { publicConfig } from "@/lib/public-config";

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

export type UploadRefusal = "too-large" | "wrong-type" | "denied" | "failed";

/**
 * Why Storage refused an upload, from its answer; null when it was accepted. Storage reports most
 * errors as HTTP 400 with the real code in the body (`{"statusCode":"413","error":"Payload too large"}`).
 */
export function uploadRefusal(status: number, body: string): UploadRefusal | null {
  if (status < 300) return null;
  let code = String(status);
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown };
    if (parsed.statusCode !== undefined) code = String(parsed.statusCode);
  } catch {
    // not JSON (a proxy's error page): the HTTP status is all there is
  }
  if (code === "413") return "too-large";
  if (code === "415" || /mime type/i.test(body)) return "wrong-type";
  if (code === "403" || code === "401") return "denied";
  return "failed";
}

function refusalWords(bucket: UploadBucket, refusal: UploadRefusal): string {
  const rules = uploadBuckets[bucket];
  return { "too-large": rules.tooLarge, "wrong-type": rules.wrongType, denied: rules.denied, failed: uploadMessages.failed }[refusal];
}

/** Storage's answer to an upload into this bucket, as words for the person; null when it was accepted. */
export function uploadProblem(bucket: UploadBucket, status: number, body: string): string | null {
  const refusal = uploadRefusal(status, body);
  return refusal && refusalWords(bucket, refusal);
}

/**
 * Where a file goes: into the bucket at `path` on the person's session (their token decides what they
 * may write), or to a signed upload URL the server made (it carries the right to write that one object).
 */
export type UploadDestination = { bucket: UploadBucket; path: string } | { bucket: UploadBucket; signedUrl: string };

/** One request carrying the file as its raw body, as Storage's upload endpoints take it. */
export interface UploadRequest {
  method: "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  body: Blob;
  /** Aborting it stops the request; the transport then rejects. */
  signal: AbortSignal;
  /** The fraction of the body sent so far, from 0 to 1. */
  onProgress: (fraction: number) => void;
}

/** Sends a request and resolves with Storage's answer; rejects when it did not get one (network, aborted). */
export type UploadTransport = (request: UploadRequest) => Promise<{ status: number; body: string }>;

/** The browser's transport: XMLHttpRequest, whose upload reports progress (fetch's does not). */
export const xhrTransport: UploadTransport = ({ method, url, headers, body, signal, onProgress }) =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    request.open(method, url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      signal.removeEventListener("abort", abort);
      resolve({ status: request.status, body: request.responseText });
    };
    request.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    request.onerror = () => {
      signal.removeEventListener("abort", abort);
      reject(new Error("network"));
    };
    signal.addEventListener("abort", abort, { once: true });
    request.send(body);
  });

export type UploadFailure = UploadRefusal | "stopped" | "signed-out" | "unreachable";

/** Stored; cancelled by the person (words are the caller's: only it knows what was undone); or what went wrong, in words. */
export type UploadResult = { ok: true } | { ok: false; reason: "cancelled" } | { ok: false; reason: UploadFailure; error: string };

export interface UploadOptions {
  /** The session's access token, for a bucket destination: null when signed out; rejects when the session cannot be read. */
  accessToken?: () => Promise<string | null>;
  /** Aborted: the file stops on its way, or is never sent. */
  signal?: AbortSignal;
  /** From 0 (sending starts) to 1. */
  onProgress?: (fraction: number) => void;
  transport?: UploadTransport;
}

/**
 * Sends the file to its destination, reporting progress, and reads Storage's answer. A cancel before
 * the answer arrives is `cancelled`; one after it changes nothing (the file is stored).
 */
export async function uploadFile(
  file: File,
  destination: UploadDestination,
  { accessToken = async () => null, signal = new AbortController().signal, onProgress = () => {}, transport = xhrTransport }: UploadOptions,
): Promise<UploadResult> {
  const headers: Record<string, string> = { apikey: publicConfig.supabaseKey, "Content-Type": file.type, "x-upsert": "false" };
  let request: Pick<UploadRequest, "method" | "url" | "headers">;
  if ("signedUrl" in destination) request = { method: "PUT", url: destination.signedUrl, headers };
  else {
    let token: string | null;
    try {
      token = await accessToken();
    } catch {
      return { ok: false, reason: "unreachable", error: uploadMessages.unreachable };
    }
    if (!token) return { ok: false, reason: "signed-out", error: uploadMessages.sessionEnded };
    request = {
      method: "POST",
      url: `${publicConfig.supabaseUrl}/storage/v1/object/${destination.bucket}/${destination.path}`,
      headers: { Authorization: `Bearer ${token}`, ...headers },
    };
  }
  if (signal.aborted) return { ok: false, reason: "cancelled" };
  onProgress(0);
  let answer: { status: number; body: string };
  try {
    answer = await transport({ ...request, body: file, signal, onProgress });
  } catch {
    return signal.aborted ? { ok: false, reason: "cancelled" } : { ok: false, reason: "stopped", error: uploadMessages.stopped };
  }
  const refusal = uploadRefusal(answer.status, answer.body);
  if (!refusal) return { ok: true };
  return { ok: false, reason: refusal, error: refusalWords(destination.bucket, refusal) };
}
