"use server";

import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { fail, ok } from "@/lib/result";
import { action, prelude, refusedForm, signedIn } from "@/lib/server-action";
import { checkUploadFile, mediaObjectPath, uploadMessages } from "@/lib/storage/buckets";
import { createAdminClient } from "@/lib/supabase/admin";
import { linkPostSchema, postEditSchema, postMessages, uploadPostSchema, type UploadPostInput } from "@/lib/validation/post";
import { rateLimitRefusal } from "@/lib/validation/rate-limit";
import { textMessages } from "@/lib/validation/text";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import { embedDurationSeconds, lookupEmbed } from "./embed-lookup";
import type { EditPostState, LinkPostState, PostResult } from "./form-state";
import { removeOrphanUploads } from "./orphans";

const saveFailed = "We couldn't save the post — try again in a moment.";
const notYourUpload = "That upload isn't one of yours";

/** Postgres' refusal of a post, in words: RLS (not a member), or a constraint the form did not catch. */
function insertProblem(error: { code?: string; message: string }): string {
  const limited = rateLimitRefusal(error);
  if (limited) return limited;
  if (error.code === "42501") return postMessages.notMember;
  if (error.message.includes("posts_storage_path_uploaded") || error.message.includes("upload has not finished"))
    return postMessages.uploadMissing;
  if (error.message.includes("posts_title_length")) return postMessages.titleTooLong;
  if (error.message.includes("posts_waveform_shape")) return postMessages.waveformInvalid;
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
export async function createLinkPost(
  room: { id: string; slug: string },
  _previous: LinkPostState,
  formData: FormData,
): Promise<LinkPostState> {
  const values = { title: text(formData, "title"), body: text(formData, "body"), url: text(formData, "url") };
  const started = await prelude(linkPostSchema, values);
  if (!started.ok) return { ...refusedForm(started.error), values };
  const { supabase, userId, input } = started.data;

  const { data: post, error } = await supabase
    .from("posts")
    .insert({ room_id: room.id, author_id: userId, title: input.title, body: input.body, media_kind: "embed", media_url: input.url })
    .select("id")
    .single();
  if (error || !post) return { status: "error", values, errors: {}, message: error ? insertProblem(error) : saveFailed };

  const embed = await lookupEmbed(supabase, input.url);
  let notice: string | undefined;
  if (embed.ok) {
    const { error: embedError } = await createAdminClient()
      .from("posts")
      .update({ embed: embed.data, duration_seconds: embedDurationSeconds(embed.data) })
      .eq("id", post.id);
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
export async function startUpload(
  roomId: string,
  file: { type: string; size: number },
): Promise<PostResult<{ path: string; signedUrl: string }>> {
  const invalid = checkUploadFile("media", file);
  if (invalid) return { ok: false, error: invalid, field: "file" };
  return action(uuidField(postMessages.notMember), roomId, async (roomId, { supabase, userId }) => {
    const path = mediaObjectPath(roomId, userId, file.type, randomUUID());
    const { data, error } = await supabase.storage.from("media").createSignedUploadUrl(path);
    after(() => removeOrphanUploads(createAdminClient()).catch(() => 0));
    if (error || !data)
      return fail(/row-level security|403|Unauthorized/i.test(error?.message ?? "") ? postMessages.notMember : uploadMessages.failed);
    return ok({ path, signedUrl: data.signedUrl });
  });
}

/** A cancelled or failed upload takes its file with it (if any of it was stored). */
export async function discardUpload(path: string): Promise<PostResult> {
  return action(z.string(notYourUpload), path, async (path, { supabase, userId }) => {
    if (path.split("/")[1] !== userId || path.includes("..")) return fail(notYourUpload);
    await supabase.storage.from("media").remove([path]);
    return ok();
  });
}

/**
 * The last step of an upload: the post, once its file is stored (the database refuses it before),
 * with the file's waveform when the browser could compute it (checked here and by posts_waveform_shape).
 */
export async function createUploadPost(
  room: { id: string; slug: string },
  input: UploadPostInput,
): Promise<PostResult<{ postId: string }>> {
  const started = await prelude(uploadPostSchema, input);
  if (!started.ok) {
    const refusal = started.error;
    return refusal.reason === "invalid"
      ? { ok: false, error: refusal.message, field: Object.keys(refusal.fields)[0] ?? "" }
      : fail(refusal.message);
  }
  const { supabase, userId, input: upload } = started.data;
  if (!upload.path.startsWith(`${room.id}/${userId}/`)) return fail(notYourUpload);
  const { data, error } = await supabase
    .from("posts")
    .insert({
      room_id: room.id,
      author_id: userId,
      title: upload.title,
      body: upload.body,
      media_kind: "upload",
      storage_path: upload.path,
      duration_seconds: upload.durationSeconds,
      waveform: upload.waveform ?? null,
    })
    .select("id")
    .single();
  if (error || !data) {
    const problem = error ? insertProblem(error) : saveFailed;
    if (problem !== postMessages.uploadMissing) await supabase.storage.from("media").remove([upload.path]);
    return fail(problem);
  }
  revalidatePath(`/r/${room.slug}`);
  return ok({ postId: data.id });
}

/** The author edits the title and text (RLS: authors only). */
export async function updatePost(
  target: { id: string; slug: string },
  _previous: EditPostState,
  formData: FormData,
): Promise<EditPostState> {
  const values = { title: text(formData, "title"), body: text(formData, "body") };
  const started = await prelude(postEditSchema, values);
  if (!started.ok) return { ...refusedForm(started.error), values };
  const { supabase, input } = started.data;
  const { data, error } = await supabase.from("posts").update(input).eq("id", target.id).select("id");
  if (error) return { status: "error", values, errors: {}, message: insertProblem(error) };
  if (!data.length) return { status: "error", values, errors: {}, message: "Only the author can edit this post." };
  revalidatePath(`/r/${target.slug}`, "layout");
  return { status: "saved", values: input, errors: {} };
}

/** Deletes a post (author, moderators, owner — RLS decides) and then its uploaded file. */
export async function deletePost(target: { id: string; slug: string }): Promise<PostResult> {
  const caller = await signedIn();
  if (!caller.ok) return caller;
  const { supabase } = caller.data;
  const { data, error } = await supabase.from("posts").delete().eq("id", target.id).select("storage_path");
  if (error) return fail("We couldn't delete the post — try again in a moment.");
  if (!data.length) return fail("Only the author, the room's moderators and its owner can delete this post.");
  const path = data[0].storage_path;
  if (path) {
    // The caller was allowed to delete the post, so its file goes too, whoever's folder it is in.
    const { data: removed } = await supabase.storage.from("media").remove([path]);
    if (!removed?.length) await createAdminClient().storage.from("media").remove([path]);
  }
  revalidatePath(`/r/${target.slug}`, "layout");
  return ok();
}
