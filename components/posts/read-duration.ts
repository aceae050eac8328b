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
