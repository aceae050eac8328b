"use server";

import { textMessages } from "@/lib/validation/text";
import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { createAdminClient } from "@/lib/supabase/admin";
import { verifiedUserId } from "@/lib/auth/verified-user";
import { createClient } from "@/lib/supabase/server";
import { checkUploadFile, mediaObjectPath, uploadMessages } from "@/lib/storage/upload";
import { type FieldErrors, fieldErrors } from "@/lib/validation/profile";
import { linkPostSchema, postEditSchema, postMessages, uploadPostSchema, type LinkPostInput, type PostEditInput, type UploadPostInput } from "@/lib/validation/post";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import { embedDurationSeconds, lookupEmbed } from "./embed-lookup";
import { removeOrphanUploads } from "./orphans";

export interface LinkPostState {
  status: "idle" | "posted" | "error";
  values: LinkPostInput;
  errors: FieldErrors<LinkPostInput>;
  message?: string;
  /** Said after a post was made: e.g. its link's details could not be read. */
  notice?: string;
  postId?: string;
}

export type ActionResult<T = null> = { ok: true; data: T } | { ok: false; error: string; field?: string };

const sessionEnded = "Your session has ended — sign in again.";
const saveFailed = "We couldn't save the post — try again in a moment.";

async function signedInClient() {
  const supabase = await createClient();
  return { supabase, userId: await verifiedUserId(supabase) };
}

/** Postgres' refusal of a post, in words: RLS (not a member), or a constraint the form did not catch. */
function insertProblem(error: { code?: string; message: string }): string {
  const limited = rateLimitRefusal(error);
  if (limited) return limited;
  if (error.code === "42501") return postMessages.notMember;
  if (error.message.includes("posts_storage_path_uploaded") || error.message.includes("upload has not finished")) return postMessages.uploadMissing;
  if (error.message.includes("posts_title_length")) return postMessages.titleTooLong;
  if (error.message.includes("posts_body_length")) return postMessages.bodyTooLong;
  if (error.message.includes("posts_title_characters")) return textMessages.lineCharacters;
  if (error.message.includes("posts_body_characters")) return textMessages.bodyCharacters;
  return saveFailed;
}

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * Posts a link: the row is written as the member (RLS decides who may post), then the link's
 * metadata from the `embed` function is written by the server (authors cannot write `embed`), with
 * the media's length when the provider gave it.
 */
export async function createLinkPost(room: { id: string; slug: string }, _previous: LinkPostState, formData: FormData): Promise<LinkPostState> {
  const values = { title: text(formData, "title"), body: text(formData, "body"), url: text(formData, "url") };
  const parsed = linkPostSchema.safeParse(values);
  if (!parsed.success) return { status: "error", values, errors: fieldErrors(parsed.error) };
  const { supabase, userId } = await signedInClient();
  if (!userId) return { status: "error", values, errors: {}, message: sessionEnded };

  const { data: post, error } = await supabase
    .from("posts")
    .insert({ room_id: room.id, author_id: userId, title: parsed.data.title, body: parsed.data.body, media_kind: "embed", media_url: parsed.data.url })
    .select("id")
    .single();
  if (error || !post) return { status: "error", values, errors: {}, message: error ? insertProblem(error) : saveFailed };

  const embed = await lookupEmbed(supabase, parsed.data.url);
  let notice: string | undefined;
  if (embed.ok) {
    const { error: embedError } = await createAdminClient().from("posts").update({ embed: embed.data, duration_seconds: embedDurationSeconds(embed.data) }).eq("id", post.id);
    if (embedError) notice = "Posted, without the link's details — they couldn't be saved.";
  } else notice = embed.error;
  revalidatePath(`/r/${room.slug}`);
  return { status: "posted", values: { title: "", body: "", url: "" }, errors: {}, notice, postId: post.id };
}

/**
 * The first step of an upload: a signed upload URL for a new file in the member's own folder of the
 * room (Storage checks the bucket's insert policy as the member when it signs). Also clears out
 * files that never became a post.
 */
export async function startUpload(roomId: string, file: { type: string; size: number }): Promise<ActionResult<{ path: string; signedUrl: string }>> {
  const invalid = checkUploadFile("media", file);
  if (invalid) return { ok: false, error: invalid, field: "file" };
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: sessionEnded };
  if (!/^[0-9a-f-]{36}$/.test(roomId)) return { ok: false, error: postMessages.notMember };
  const path = mediaObjectPath(roomId, userId, file.type, randomUUID());
  const { data, error } = await supabase.storage.from("media").createSignedUploadUrl(path);
  after(() => removeOrphanUploads(createAdminClient()).catch(() => 0));
  if (error || !data) return { ok: false, error: /row-level security|403|Unauthorized/i.test(error?.message ?? "") ? postMessages.notMember : uploadMessages.failed };
  return { ok: true, data: { path, signedUrl: data.signedUrl } };
}

/** A cancelled or failed upload takes its file with it (if any of it was stored). */
export async function discardUpload(path: string): Promise<ActionResult> {
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: sessionEnded };
  if (typeof path !== "string" || path.split("/")[1] !== userId || path.includes("..")) return { ok: false, error: "That upload isn't one of yours" };
  await supabase.storage.from("media").remove([path]);
  return { ok: true, data: null };
}

/** The last step of an upload: the post, once its file is stored (the database refuses it before). */
export async function createUploadPost(room: { id: string; slug: string }, input: UploadPostInput): Promise<ActionResult<{ postId: string }>> {
  const parsed = uploadPostSchema.safeParse(input);
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    return { ok: false, error: first?.message ?? saveFailed, field: String(first?.path[0] ?? "") };
  }
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: sessionEnded };
  if (!parsed.data.path.startsWith(`${room.id}/${userId}/`)) return { ok: false, error: "That upload isn't one of yours" };
  const { data, error } = await supabase
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: userId,
      title: parsed.data.title,
      body: parsed.data.body,
      media_kind: "upload",
      storage_path: parsed.data.path,
      duration_seconds: parsed.data.durationSeconds,
    })
    .select("id")
    .single();
  if (error || !data) {
    const problem = error ? insertProblem(error) : saveFailed;
    if (problem !== postMessages.uploadMissing) await supabase.storage.from("media").remove([parsed.data.path]);
    return { ok: false, error: problem };
  }
  revalidatePath(`/r/${room.slug}`);
  return { ok: true, data: { postId: data.id } };
}

export interface EditPostState {
  status: "idle" | "saved" | "error";
  values: PostEditInput;
  errors: FieldErrors<PostEditInput>;
  message?: string;
}

/** The author edits the title and text (RLS: authors only). */
export async function updatePost(target: { id: string; slug: string }, _previous: EditPostState, formData: FormData): Promise<EditPostState> {
  const values = { title: text(formData, "title"), body: text(formData, "body") };
  const parsed = postEditSchema.safeParse(values);
  if (!parsed.success) return { status: "error", values, errors: fieldErrors(parsed.error) };
  const { supabase, userId } = await signedInClient();
  if (!userId) return { status: "error", values, errors: {}, message: sessionEnded };
  const { data, error } = await supabase.from("posts").update(parsed.data).eq("id", target.id).select("id");
  if (error) return { status: "error", values, errors: {}, message: insertProblem(error) };
  if (!data.length) return { status: "error", values, errors: {}, message: "Only the author can edit this post." };
  revalidatePath(`/r/${target.slug}`, "layout");
  return { status: "saved", values: parsed.data, errors: {} };
}

/** Deletes a post (author, moderators, owner — RLS decides) and then its uploaded file. */
export async function deletePost(target: { id: string; slug: string }): Promise<ActionResult> {
  const { supabase, userId } = await signedInClient();
  if (!userId) return { ok: false, error: sessionEnded };
  const { data, error } = await supabase.from("posts").delete().eq("id", target.id).select("storage_path");
  if (error) return { ok: false, error: "We couldn't delete the post — try again in a moment." };
  if (!data.length) return { ok: false, error: "Only the author, the room's moderators and its owner can delete this post." };
  const path = data[0].storage_path;
  if (path) {
    // The caller was allowed to delete the post, so its file goes too, whoever's folder it is in.
    const { data: removed } = await supabase.storage.from("media").remove([path]);
    if (!removed?.length) await createAdminClient().storage.from("media").remove([path]);
  }
  revalidatePath(`/r/${target.slug}`, "layout");
  return { ok: true, data: null };
}
