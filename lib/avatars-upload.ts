// Avatar rules the browser checks before uploading; the bucket enforces the same (config.toml).
export const avatarMaxBytes = 2 * 1024 * 1024;
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

/**
 * What a failed upload means for the person, from Storage's answer. Storage reports most errors
 * as HTTP 400 with the real code in the body (`{"statusCode":"413","error":"Payload too large"}`).
 */
export function avatarUploadProblem(status: number, body: string): string | null {
  if (status < 300) return null;
  let code = String(status);
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown };
    if (parsed.statusCode !== undefined) code = String(parsed.statusCode);
  } catch {
    // not JSON (a proxy's error page): the HTTP status is all there is
  }
  if (code === "413") return "Pictures up to 2 MB";
  if (code === "415" || /mime type/i.test(body)) return "Pictures can be PNG, JPEG, WebP or GIF";
  if (code === "403" || code === "401") return "Your session has ended — sign in again.";
  return "The upload failed — try again.";
}
