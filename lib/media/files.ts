// Upload rules the browser checks before sending a byte; the media bucket enforces the same
// (config.toml: 50 MiB, audio/* and video/*).
export const mediaMaxBytes = 50 * 1024 * 1024;

export const mediaMessages = {
  tooLarge: "Files up to 50 MB",
  wrongType: "Choose an audio or video file",
  empty: "That file is empty",
  failed: "The upload failed — try again.",
  stopped: "The upload stopped — check your connection and try again.",
  session: "Your session has ended — sign in again.",
  notMember: "Join the room to post in it",
} as const;

export function checkMediaFile(file: { size: number; type: string }): string | null {
  if (!/^(audio|video)\/[\w.+-]+$/.test(file.type)) return mediaMessages.wrongType;
  if (file.size > mediaMaxBytes) return mediaMessages.tooLarge;
  if (file.size === 0) return mediaMessages.empty;
  return null;
}

const extensions: Record<string, string> = {
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

/** `{room_id}/{user_id}/{random}.{ext}`: the member's own folder of the room, a name no one can guess. */
export function mediaObjectPath(roomId: string, userId: string, type: string, random: string): string {
  return `${roomId}/${userId}/${random}.${extensions[type] ?? "bin"}`;
}

/** Storage's answer to an upload, as words for the person (Storage puts the real code in the body). */
export function mediaUploadProblem(status: number, body: string): string | null {
  if (status < 300) return null;
  let code = String(status);
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown };
    if (parsed.statusCode !== undefined) code = String(parsed.statusCode);
  } catch {
    // not JSON: the HTTP status is all there is
  }
  if (code === "413") return mediaMessages.tooLarge;
  if (code === "415" || /mime type/i.test(body)) return mediaMessages.wrongType;
  if (code === "403" || code === "401") return mediaMessages.session;
  return mediaMessages.failed;
}
