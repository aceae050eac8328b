"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { createUploadPost, discardUpload, startUpload } from "@/lib/posts/actions";
import { UploadProgress } from "@/components/storage/upload-progress";
import { useUpload } from "@/components/storage/use-upload";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { MentionTextArea } from "@/components/mentions/mention-textarea";
import { filePeaks } from "@/lib/media/decode-peaks";
import { acceptedTypes, checkUploadFile, uploadMessages } from "@/lib/storage/buckets";
import { readDuration } from "./read-duration";

const cancelledMessage = "Upload cancelled — nothing was posted.";

type Errors = Partial<Record<"file" | "title" | "body", string>>;

/** How long a finished upload waits for its waveform before posting without it (the backfill adds it later). */
const waveformWaitMs = 10_000;
const within = <T,>(promise: Promise<T>, ms: number): Promise<T | null> =>
  Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

/**
 * Upload a file: checked here before a byte is sent (type, 50 MB), stored through a signed upload
 * URL with a progress bar, and posted only once stored. Cancelling or a failure removes what was sent.
 * Meanwhile the browser computes the file's waveform (lib/media/decode-peaks.ts), posted with it.
 */
export function UploadPostForm({ room }: { room: { id: string; slug: string } }) {
  const router = useRouter();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function choose(chosen: File | undefined) {
    setDone(null);
    setMessage(null);
    setFile(chosen ?? null);
    const problem = chosen ? checkUploadFile("media", chosen) : null;
    setErrors((previous) => ({ ...previous, file: problem ?? undefined }));
    if (chosen && !title) setTitle(chosen.name.replace(/\.[^.]+$/, "").slice(0, 120));
  }

  async function submit() {
    setMessage(null);
    setDone(null);
    const found: Errors = {};
    if (!file) found.file = "Choose an audio or video file";
    else found.file = checkUploadFile("media", file) ?? undefined;
    if (!title.trim()) found.title = "Give the post a title";
    else if (title.trim().length > 120) found.title = "Titles are up to 120 characters";
    if (body.trim().length > 2000) found.body = "Posts are up to 2000 characters";
    setErrors(found);
    if (!file || Object.values(found).some(Boolean)) return;

    upload.begin();
    // The browser decodes the file for its waveform while it uploads; a file it can't decode posts without one.
    const peaks = filePeaks(file).catch(() => null);
    const durationSeconds = await readDuration(file);
    const started = await startUpload(room.id, { type: file.type, size: file.size }).catch(() => null);
    if (!started?.ok) {
      upload.finish();
      return started?.field === "file" ? setErrors({ file: started.error }) : setMessage(started?.error ?? uploadMessages.stopped);
    }
    const { path, signedUrl } = started.data;
    if (upload.cancelled()) {
      upload.finish();
      return setMessage(cancelledMessage);
    }
    const sent = await upload.send(file, { bucket: "media", signedUrl });
    if (!sent.ok) {
      await discardUpload(path).catch(() => null);
      upload.finish();
      return setMessage(sent.reason === "cancelled" ? cancelledMessage : sent.error);
    }
    const waveform = await within(peaks, waveformWaitMs);
    const posted = await createUploadPost(room, { title, body, path, durationSeconds, waveform }).catch(() => null);
    upload.finish();
    if (!posted?.ok) {
      await discardUpload(path).catch(() => null);
      return setMessage(posted?.error ?? uploadMessages.stopped);
    }
    setTitle("");
    setBody("");
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
    setDone("Posted.");
    router.refresh();
  }

  const { progress } = upload;
  const busy = progress !== null;
  return (
    <form
      noValidate
      aria-label="Upload a file"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor="media-file" className="text-sm font-medium">
          Audio or video file
        </label>
        <input
          ref={fileInput}
          id="media-file"
          name="file"
          type="file"
          accept={acceptedTypes("media")}
          disabled={busy}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={errors.file ? "media-file-error" : "media-file-hint"}
          className="w-full min-w-0 text-sm file:mr-3 file:rounded-lg file:border file:border-line file:bg-raised file:px-3 file:py-2 file:text-ink"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        {errors.file ? (
          <p id="media-file-error" role="alert" className="text-sm text-danger">
            {errors.file}
          </p>
        ) : (
          <p id="media-file-hint" className="text-sm text-muted">
            Audio or video, files up to 50 MB.
          </p>
        )}
      </div>
      <TextField
        id="upload-title"
        label="Title"
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        error={errors.title}
        disabled={busy}
      />
      <MentionTextArea
        id="upload-body"
        roomId={room.id}
        label="Say something about it (optional)"
        value={body}
        onValueChange={setBody}
        error={errors.body}
        disabled={busy}
      />
      {busy ? <UploadProgress fraction={progress} /> : null}
      {message ? <Alert tone="error">{message}</Alert> : null}
      {done ? <Alert tone="success">{done}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? "Uploading…" : "Upload and post"}
        </Button>
        {busy ? (
          <Button variant="secondary" onClick={upload.cancel}>
            Cancel upload
          </Button>
        ) : null}
      </div>
    </form>
  );
}
