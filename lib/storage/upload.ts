// Sending a file from the browser to Storage, for every bucket the app writes to (the buckets' rules
// are ./buckets.ts): the request with its progress and cancel, and Storage's answer in words.
import { publicConfig } from "@/lib/public-config";
import { type UploadBucket, uploadBuckets, uploadMessages } from "./buckets";

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

export function refusalWords(bucket: UploadBucket, refusal: UploadRefusal): string {
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
