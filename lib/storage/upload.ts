// Uploading a file straight from the browser to Storage, and reading Storage's refusals. Shared by
// the avatar and room-cover uploaders, which word the refusals for what they upload.

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

/** POSTs the file as the raw body (what Storage's upload endpoint takes), reporting progress from 0 to 1. */
export function uploadWithProgress(url: string, headers: Record<string, string>, file: File, onProgress: (fraction: number) => void): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    request.onerror = () => reject(new Error("network"));
    request.send(file);
  });
}

/** Public URL of an object in a public bucket (no signing needed). */
export function publicObjectUrl(supabaseUrl: string, bucket: string, path: string): string {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return `${supabaseUrl}/storage/v1/object/public/${bucket}/${encoded}`;
}
