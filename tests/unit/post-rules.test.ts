// The post form's rules, shared by the browser and the server actions: what a link, a title, a
// text and a file must be, the feed's cursor, and how Storage's refusals read.
import { expect, test } from "vitest";
import { checkUploadFile, mediaObjectPath, uploadBuckets } from "@/lib/storage/buckets";
import { uploadProblem } from "@/lib/storage/upload";
import { decodeCursor, encodeCursor, olderThan } from "@/lib/posts/cursor";
import { linkPostSchema, postEditSchema, uploadPostSchema } from "@/lib/validation/post";

const valid = { title: "Night drive", body: "", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" };
const urlError = (url: string) => {
  const parsed = linkPostSchema.safeParse({ ...valid, url });
  return parsed.success ? null : parsed.error.issues.find((issue) => issue.path[0] === "url")?.message;
};

test("a playable https link with a title passes", () => {
  expect(linkPostSchema.parse(valid)).toEqual(valid);
  expect(urlError("https://vimeo.com/76979871")).toBeNull();
  expect(urlError("https://cdn.example.com/track.mp3")).toBeNull();
});

test("javascript:, data:, http: and unplayable links are refused with words that say why", () => {
  expect(urlError("javascript:alert(1)")).toMatch(/https:\/\//);
  expect(urlError("data:audio/wav;base64,AAAA")).toMatch(/https:\/\//);
  expect(urlError("http://www.youtube.com/watch?v=dQw4w9WgXcQ")).toMatch(/https:\/\//);
  expect(urlError("https://example.com/page.html")).toMatch(/can't play/);
  expect(urlError("")).toBeTruthy();
});

test("titles are 1–120 characters and texts up to 2000", () => {
  expect(postEditSchema.safeParse({ title: "   ", body: "" }).success).toBe(false);
  expect(postEditSchema.safeParse({ title: "t".repeat(121), body: "" }).error?.issues[0].message).toBe("Titles are up to 120 characters");
  expect(postEditSchema.safeParse({ title: "t".repeat(120), body: "b".repeat(2000) }).success).toBe(true);
  expect(postEditSchema.safeParse({ title: "t", body: "b".repeat(2001) }).error?.issues[0].message).toBe("Posts are up to 2000 characters");
});

test("files: audio or video only, up to 50 MB, never empty", () => {
  expect(checkUploadFile("media", { type: "audio/wav", size: 1000 })).toBeNull();
  expect(checkUploadFile("media", { type: "video/webm", size: uploadBuckets.media.maxBytes })).toBeNull();
  expect(checkUploadFile("media", { type: "video/mp4", size: 60 * 1024 * 1024 })).toBe("Files up to 50 MB");
  expect(checkUploadFile("media", { type: "application/pdf", size: 10 })).toBe("Choose an audio or video file");
  expect(checkUploadFile("media", { type: "", size: 10 })).toBe("Choose an audio or video file");
  expect(checkUploadFile("media", { type: "audio/wav", size: 0 })).toBe("That file is empty");
});

test("an upload's path is the member's own folder of the room, and the post schema takes only such paths", () => {
  const room = "10000000-0000-4000-8000-000000000001";
  const user = "0000000c-0000-4000-8000-00000000000c";
  const path = mediaObjectPath(room, user, "audio/wav", "6f1c1f0e-3a5e-4a39-9f43-1a0d4f1d2b11");
  expect(path).toBe(`${room}/${user}/6f1c1f0e-3a5e-4a39-9f43-1a0d4f1d2b11.wav`);
  expect(uploadPostSchema.safeParse({ title: "t", body: "", path, durationSeconds: 1.5 }).success).toBe(true);
  expect(uploadPostSchema.safeParse({ title: "t", body: "", path: `${room}/../x.wav`, durationSeconds: null }).success).toBe(false);
});

test("Storage's refusals read as the rules", () => {
  expect(uploadProblem("media", 200, "{}")).toBeNull();
  expect(uploadProblem("media", 400, JSON.stringify({ statusCode: "413", error: "Payload too large" }))).toBe("Files up to 50 MB");
  expect(uploadProblem("media", 400, JSON.stringify({ statusCode: "415", error: "invalid_mime_type" }))).toBe(
    "Choose an audio or video file",
  );
  expect(uploadProblem("media", 403, "")).toBe("Your session has ended — sign in again.");
  expect(uploadProblem("media", 502, "Bad Gateway")).toBe("The upload failed — try again.");
});

test("the feed cursor round-trips, and anything else is the first page", () => {
  const cursor = { createdAt: "2026-11-23T18:00:00.123456+00:00", id: "30000000-0000-4000-8000-000000000001" };
  expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  expect(decodeCursor(`2026-11-23T18:00:00.123Z);drop~${cursor.id}`)).toBeNull();
  expect(decodeCursor(undefined)).toBeNull();
  expect(decodeCursor("not-a-cursor")).toBeNull();
  expect(decodeCursor(["a", "b"])).toBeNull();
  expect(decodeCursor(`2026-11-23T18:00:00Z~${cursor.id}~x`)).toBeNull();
  expect(olderThan(cursor)).toBe(`created_at.lt.${cursor.createdAt},and(created_at.eq.${cursor.createdAt},id.lt.${cursor.id})`);
});
