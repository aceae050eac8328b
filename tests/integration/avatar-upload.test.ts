// The avatar uploader reads Storage's answers: each refusal the avatars bucket gives must turn into
// the message the person sees, whatever HTTP status carries it.
import { afterAll, beforeAll, expect, test } from "vitest";
import { avatarObjectPath } from "../../lib/storage/buckets";
import { uploadProblem } from "../../lib/storage/upload";
import { anonClient, anonKey, apiUrl, serviceClient } from "../helpers/stack";

const admin = serviceClient();
const email = `avatar-upload-${Date.now().toString(36)}@integration.cuepoint.test`;
const password = "avatar-upload-password";
let userId = "";
let accessToken = "";

beforeAll(async () => {
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw created.error;
  userId = created.data.user.id;
  const signedIn = await anonClient().auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  accessToken = signedIn.data.session.access_token;
});

afterAll(async () => {
  const { data } = await admin.storage.from("avatars").list(userId);
  if (data?.length) await admin.storage.from("avatars").remove(data.map((file) => `${userId}/${file.name}`));
  await admin.auth.admin.deleteUser(userId);
});

/** What the uploader sends: the file as the raw body, with the person's token. */
async function upload(path: string, type: string, bytes: number) {
  const response = await fetch(`${apiUrl}/storage/v1/object/avatars/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, apikey: anonKey, "Content-Type": type, "x-upsert": "false" },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: await response.text() };
}

test("a file over the bucket's 2 MB limit reads as the size rule", async () => {
  const result = await upload(avatarObjectPath(userId, "image/png"), "image/png", 2 * 1024 * 1024 + 1);
  expect(result.status).toBeGreaterThanOrEqual(400);
  expect(uploadProblem("avatars", result.status, result.body)).toBe("Pictures up to 2 MB");
});

test("a type the bucket does not take reads as the type rule", async () => {
  const result = await upload(`${userId}/avatar-1.txt`, "text/plain", 10);
  expect(uploadProblem("avatars", result.status, result.body)).toBe("Pictures can be PNG, JPEG, WebP or GIF");
});

test("another person's folder reads as a session problem, and an accepted picture as no problem", async () => {
  const foreign = await upload(avatarObjectPath("00000000-0000-4000-8000-000000000000", "image/png"), "image/png", 10);
  expect(uploadProblem("avatars", foreign.status, foreign.body)).toBe("Your session has ended — sign in again.");
  const accepted = await upload(avatarObjectPath(userId, "image/png"), "image/png", 10);
  expect(accepted.status).toBe(200);
  expect(uploadProblem("avatars", accepted.status, accepted.body)).toBeNull();
});

test("a body that is not Storage's JSON falls back to the HTTP status", () => {
  expect(uploadProblem("avatars", 413, "<html>Request Entity Too Large</html>")).toBe("Pictures up to 2 MB");
  expect(uploadProblem("avatars", 502, "Bad Gateway")).toBe("The upload failed — try again.");
});
