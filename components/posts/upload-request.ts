/** A PUT of the file to a signed upload URL, with progress, that the person can cancel. */
export interface UploadRequest {
  done: Promise<{ status: number; body: string } | "cancelled">;
  cancel: () => void;
}

export function putWithProgress(url: string, headers: Record<string, string>, file: File, onProgress: (fraction: number) => void): UploadRequest {
  const request = new XMLHttpRequest();
  const done = new Promise<{ status: number; body: string } | "cancelled">((resolve, reject) => {
    request.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    request.onabort = () => resolve("cancelled");
    request.onerror = () => reject(new Error("network"));
    request.send(file);
  });
  return { done, cancel: () => request.abort() };
}

/** The length of an audio or video file, read by the browser from its metadata; null if it can't tell. */
export function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const element = document.createElement(file.type.startsWith("video/") ? "video" : "audio");
    const url = URL.createObjectURL(file);
    const finish = (value: number | null) => {
      URL.revokeObjectURL(url);
      element.removeAttribute("src");
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), 5000);
    element.preload = "metadata";
    element.onloadedmetadata = () => {
      clearTimeout(timer);
      const seconds = element.duration;
      finish(Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) / 1000 : null);
    };
    element.onerror = () => {
      clearTimeout(timer);
      finish(null);
    };
    element.src = url;
  });
}
