// The one upload path (lib/storage/buckets.ts and upload.ts): each bucket's rules as config.toml declares them,
// the refusals in each bucket's words, and a file's journey — its request, progress, cancel and the
// failures on the way — through a fake transport of the module's own interface, then the browser's
// transport on a fake XMLHttpRequest.
import { readFileSync } from "node:fs";
import { parseConfig } from "@cuepoint/stack";
import { configTomlPath } from "@cuepoint/stack/paths";
import { afterEach, describe, expect, test, vi } from "vitest";
import { networkMessage } from "@/lib/auth/messages";
import { messages } from "@/lib/messages";
import { publicConfig } from "@/lib/public-config";
import {
  acceptedTypes,
  avatarObjectPath,
  checkUploadFile,
  coverObjectPath,
  mediaObjectPath,
  type UploadBucket,
  uploadBuckets,
} from "@/lib/storage/buckets";
import { uploadFile, uploadProblem, uploadRefusal, type UploadRequest, type UploadTransport, xhrTransport } from "@/lib/storage/upload";

const buckets = Object.keys(uploadBuckets) as UploadBucket[];
const png = (bytes = 4) => new File([new Uint8Array(bytes)], "me.png", { type: "image/png" });
const wav = () => new File([new Uint8Array(8)], "tone.wav", { type: "audio/wav" });

describe("each bucket's rules", () => {
  test("are config.toml's: the same buckets, size limits and types", () => {
    const declared = (
      parseConfig(readFileSync(configTomlPath, "utf8")).raw.storage as {
        buckets: Record<string, { file_size_limit: string; allowed_mime_types: string[] }>;
      }
    ).buckets;
    expect(Object.keys(declared).sort()).toEqual([...buckets].sort());
    for (const bucket of buckets) {
      const [, mebibytes] = /^(\d+)MiB$/.exec(declared[bucket].file_size_limit) ?? [];
      expect(Number(mebibytes) * 1024 * 1024, bucket).toBe(uploadBuckets[bucket].maxBytes);
      expect(declared[bucket].allowed_mime_types, bucket).toEqual([...uploadBuckets[bucket].types]);
    }
  });

  test("a file at the limit passes, a byte more is too large, an empty one is named, in each bucket's words", () => {
    const limits: [UploadBucket, string, string][] = [
      ["avatars", "image/gif", "Pictures up to 2 MB"],
      ["room-covers", "image/webp", "Covers up to 5 MB"],
      ["media", "video/mp4", "Files up to 50 MB"],
    ];
    for (const [bucket, type, tooLarge] of limits) {
      const { maxBytes } = uploadBuckets[bucket];
      expect(checkUploadFile(bucket, { type, size: maxBytes }), bucket).toBeNull();
      expect(checkUploadFile(bucket, { type, size: maxBytes + 1 }), bucket).toBe(tooLarge);
      expect(checkUploadFile(bucket, { type, size: 0 }), bucket).toBe("That file is empty");
    }
  });

  test("a type the bucket does not take is refused before its size is looked at", () => {
    expect(checkUploadFile("avatars", { type: "image/svg+xml", size: 10 ** 9 })).toBe("Pictures can be PNG, JPEG, WebP or GIF");
    expect(checkUploadFile("room-covers", { type: "image/gif", size: 1 })).toBe("Covers can be PNG, JPEG or WebP");
    expect(checkUploadFile("media", { type: "audio/x-flac+ogg", size: 1 })).toBeNull();
    for (const type of ["audio/", "audio", "image/png", "audio/wav; codecs=1", "text/audio/wav", ""]) {
      expect(checkUploadFile("media", { type, size: 1 }), type).toBe("Choose an audio or video file");
    }
  });

  test("the file picker offers the bucket's types", () => {
    expect(acceptedTypes("avatars")).toBe("image/png,image/jpeg,image/webp,image/gif");
    expect(acceptedTypes("room-covers")).toBe("image/png,image/jpeg,image/webp");
    expect(acceptedTypes("media")).toBe("audio/*,video/*");
  });

  test("a new object's name carries the extension of a type the bucket takes, else the bucket's catch-all", () => {
    const user = "0000000c-0000-4000-8000-00000000000c";
    const room = "10000000-0000-4000-8000-000000000001";
    expect(avatarObjectPath(user, "image/jpeg", 7)).toBe(`${user}/avatar-7.jpg`);
    expect(avatarObjectPath(user, "image/gif", 7)).toBe(`${user}/avatar-7.gif`);
    expect(avatarObjectPath(user, "audio/mpeg", 7)).toBe(`${user}/avatar-7.img`);
    expect(coverObjectPath(room, "image/gif", 8)).toBe(`${room}/cover-8.img`);
    expect(mediaObjectPath(room, user, "video/quicktime", "r")).toBe(`${room}/${user}/r.mov`);
    expect(mediaObjectPath(room, user, "audio/x-unknown", "r")).toBe(`${room}/${user}/r.bin`);
    expect(mediaObjectPath(room, user, "image/png", "r")).toBe(`${room}/${user}/r.bin`);
  });
});

describe("Storage's refusals", () => {
  test("are read from the code in the body, else the HTTP status", () => {
    expect(uploadRefusal(200, "{}")).toBeNull();
    expect(uploadRefusal(400, JSON.stringify({ statusCode: "413", error: "Payload too large" }))).toBe("too-large");
    expect(uploadRefusal(413, "<html>Request Entity Too Large</html>")).toBe("too-large");
    expect(
      uploadRefusal(
        400,
        JSON.stringify({ statusCode: "400", error: "invalid_mime_type", message: "mime type text/plain is not supported" }),
      ),
    ).toBe("wrong-type");
    expect(uploadRefusal(400, JSON.stringify({ statusCode: "403", error: "Unauthorized" }))).toBe("denied");
    expect(uploadRefusal(401, "")).toBe("denied");
    expect(uploadRefusal(502, "Bad Gateway")).toBe("failed");
  });

  test("are said in the words of the bucket: a refused write is a session ended, except a cover's, which is the owner's and moderators'", () => {
    const denied = JSON.stringify({ statusCode: "403", error: "Unauthorized" });
    expect(uploadProblem("avatars", 400, denied)).toBe(messages.sessionEnded);
    expect(uploadProblem("media", 400, denied)).toBe(messages.sessionEnded);
    expect(uploadProblem("room-covers", 400, denied)).toBe("Only the room's owner and moderators can change its cover.");
    expect(uploadProblem("room-covers", 415, "")).toBe("Covers can be PNG, JPEG or WebP");
    for (const bucket of buckets) expect(uploadProblem(bucket, 500, ""), bucket).toBe("The upload failed — try again.");
  });
});

/** A transport of the module's interface that records each request and answers as told. */
function fakeTransport(answer: (request: UploadRequest) => Promise<{ status: number; body: string }>) {
  const requests: UploadRequest[] = [];
  const transport: UploadTransport = (request) => {
    requests.push(request);
    return answer(request);
  };
  return { transport, requests };
}

const stored = async () => ({ status: 200, body: JSON.stringify({ Key: "x" }) });

describe("uploadFile", () => {
  test("into a bucket on the session: POSTs the file with the token, the publishable key, its type and no upsert; progress from 0", async () => {
    const file = png();
    const progress: number[] = [];
    const { transport, requests } = fakeTransport(async (request) => {
      request.onProgress(0.5);
      request.onProgress(1);
      return stored();
    });
    const result = await uploadFile(
      file,
      { bucket: "avatars", path: "u/avatar-1.png" },
      { accessToken: async () => "token", transport, onProgress: (fraction) => progress.push(fraction) },
    );
    expect(result).toEqual({ ok: true });
    expect(progress).toEqual([0, 0.5, 1]);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect({ method: request.method, url: request.url, headers: request.headers, body: request.body }).toEqual({
      method: "POST",
      url: `${publicConfig.supabaseUrl}/storage/v1/object/avatars/u/avatar-1.png`,
      headers: { Authorization: "Bearer token", apikey: publicConfig.supabaseKey, "Content-Type": "image/png", "x-upsert": "false" },
      body: file,
    });
  });

  test("to a signed upload URL: PUTs the file without the session's token (the URL carries the right to write)", async () => {
    const accessToken = vi.fn(async () => "token");
    const { transport, requests } = fakeTransport(stored);
    const result = await uploadFile(
      wav(),
      { bucket: "media", signedUrl: "https://storage.example/upload/sign/media/a.wav?token=t" },
      { accessToken, transport },
    );
    expect(result).toEqual({ ok: true });
    expect(accessToken).not.toHaveBeenCalled();
    expect(requests[0].method).toBe("PUT");
    expect(requests[0].url).toBe("https://storage.example/upload/sign/media/a.wav?token=t");
    expect(requests[0].headers).toEqual({ apikey: publicConfig.supabaseKey, "Content-Type": "audio/wav", "x-upsert": "false" });
  });

  test("signed out: says the session ended, and sends nothing", async () => {
    const progress: number[] = [];
    const { transport, requests } = fakeTransport(stored);
    const result = await uploadFile(
      png(),
      { bucket: "room-covers", path: "r/cover-1.png" },
      { accessToken: async () => null, transport, onProgress: (fraction) => progress.push(fraction) },
    );
    expect(result).toEqual({ ok: false, reason: "signed-out", error: messages.sessionEnded });
    expect(requests).toEqual([]);
    expect(progress).toEqual([]);
  });

  test("the session cannot be read (offline): says the server was not reached, and sends nothing", async () => {
    const { transport, requests } = fakeTransport(stored);
    const result = await uploadFile(
      png(),
      { bucket: "avatars", path: "u/a.png" },
      { accessToken: () => Promise.reject(new Error("chunk failed")), transport },
    );
    expect(result).toEqual({ ok: false, reason: "unreachable", error: networkMessage });
    expect(requests).toEqual([]);
  });

  test("a request that breaks off on its way: the upload stopped", async () => {
    const { transport } = fakeTransport(() => Promise.reject(new Error("network")));
    const result = await uploadFile(wav(), { bucket: "media", signedUrl: "https://storage.example/s" }, { transport });
    expect(result).toEqual({ ok: false, reason: "stopped", error: "The upload stopped — check your connection and try again." });
  });

  test("Storage's refusal comes back in the bucket's words", async () => {
    const { transport } = fakeTransport(async () => ({
      status: 400,
      body: JSON.stringify({ statusCode: "413", error: "Payload too large" }),
    }));
    expect(await uploadFile(png(), { bucket: "avatars", path: "u/a.png" }, { accessToken: async () => "token", transport })).toEqual({
      ok: false,
      reason: "too-large",
      error: "Pictures up to 2 MB",
    });
    const denied = fakeTransport(async () => ({ status: 403, body: "" }));
    expect(
      await uploadFile(
        png(),
        { bucket: "room-covers", path: "r/c.png" },
        { accessToken: async () => "token", transport: denied.transport },
      ),
    ).toEqual({
      ok: false,
      reason: "denied",
      error: "Only the room's owner and moderators can change its cover.",
    });
  });

  test("cancelled while the file is on its way: the request is aborted and the upload says cancelled", async () => {
    const controller = new AbortController();
    const { transport, requests } = fakeTransport(
      (request) =>
        new Promise((_resolve, reject) => {
          request.onProgress(0.25);
          request.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    const progress: number[] = [];
    const upload = uploadFile(
      wav(),
      { bucket: "media", signedUrl: "https://storage.example/s" },
      { transport, signal: controller.signal, onProgress: (fraction) => progress.push(fraction) },
    );
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort();
    expect(await upload).toEqual({ ok: false, reason: "cancelled" });
    expect(requests[0].signal.aborted).toBe(true);
    expect(progress).toEqual([0, 0.25]);
  });

  test("cancelled before sending: nothing is sent", async () => {
    const controller = new AbortController();
    controller.abort();
    const { transport, requests } = fakeTransport(stored);
    expect(
      await uploadFile(
        png(),
        { bucket: "avatars", path: "u/a.png" },
        { accessToken: async () => "token", transport, signal: controller.signal },
      ),
    ).toEqual({ ok: false, reason: "cancelled" });
    expect(requests).toEqual([]);
  });

  test("a cancel after Storage answered changes nothing: the file is stored", async () => {
    const controller = new AbortController();
    const { transport } = fakeTransport(async () => {
      const answer = await stored();
      controller.abort();
      return answer;
    });
    expect(
      await uploadFile(wav(), { bucket: "media", signedUrl: "https://storage.example/s" }, { transport, signal: controller.signal }),
    ).toEqual({ ok: true });
  });
});

/** Just enough of XMLHttpRequest for the browser's transport: what it was given, and events to fire. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  sent: unknown = null;
  aborted = false;
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}

describe("xhrTransport", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.last = null;
  });

  const send = (signal = new AbortController().signal, onProgress: (fraction: number) => void = () => {}) => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const body = new Blob(["x"]);
    const answer = xhrTransport({
      method: "PUT",
      url: "https://storage.example/s",
      headers: { apikey: "k", "Content-Type": "audio/wav" },
      body,
      signal,
      onProgress,
    });
    return { answer, xhr: FakeXhr.last!, body };
  };

  test("sends the body with the headers, reports the progress it can compute, and resolves with Storage's answer", async () => {
    const progress: number[] = [];
    const { answer, xhr, body } = send(undefined, (fraction) => progress.push(fraction));
    expect({ method: xhr.method, url: xhr.url, headers: xhr.headers, sent: xhr.sent }).toEqual({
      method: "PUT",
      url: "https://storage.example/s",
      headers: { apikey: "k", "Content-Type": "audio/wav" },
      sent: body,
    });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 2, total: 0 });
    xhr.status = 200;
    xhr.responseText = '{"Key":"media/a.wav"}';
    xhr.onload?.();
    await expect(answer).resolves.toEqual({ status: 200, body: '{"Key":"media/a.wav"}' });
    expect(progress).toEqual([0.25]);
  });

  test("the signal aborts the request, which then rejects", async () => {
    const controller = new AbortController();
    const { answer, xhr } = send(controller.signal);
    controller.abort();
    expect(xhr.aborted).toBe(true);
    await expect(answer).rejects.toThrow(/cancelled/);
  });

  test("a network error rejects, and a later abort no longer touches the request", async () => {
    const controller = new AbortController();
    const { answer, xhr } = send(controller.signal);
    xhr.onerror?.();
    await expect(answer).rejects.toThrow("network");
    controller.abort();
    expect(xhr.aborted).toBe(false);
  });
});
