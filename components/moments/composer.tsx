"use client";

import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/field";
import { createMoment } from "@/lib/moments/actions";
import { formatMomentTime, parseMomentTime } from "@/lib/moments/time";
import { momentMessages } from "@/lib/moments/rules";
import { loadMomentSchemas } from "@/lib/moments/schemas";
import { useMoments } from "./moments-context";
import { usePlayback, usePlaybackStore } from "./playback";

/** The comment's time: following playback (null), captured when typing began, or typed by the person. */
type At = { text: string; seconds: number | null } | null;

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

type MomentSchemas = NonNullable<Awaited<ReturnType<typeof loadMomentSchemas>>>;

/** The time a comment is at, checked as the server checks it; an error message or the seconds. */
function checkAt(at: { text: string; seconds: number | null }, duration: number | null, schemas: MomentSchemas | null): { seconds: number } | { error: string } {
  const seconds = at.seconds ?? parseMomentTime(at.text);
  if (seconds === null) return { error: momentMessages.atInvalid };
  const parsed = schemas?.momentAtSchema.safeParse(seconds);
  if (parsed && !parsed.success) return { error: parsed.error.issues[0].message };
  if (duration !== null && seconds > duration) return { error: momentMessages.atPastEnd };
  return { seconds };
}

/**
 * "Comment at 1:42": the time follows playback until the person starts typing (then it is captured)
 * or types a time of their own; or a general comment, at no time. What was typed stays on any error.
 */
export function MomentComposer() {
  const { post, dispatch } = useMoments();
  const store = usePlaybackStore();
  const duration = usePlayback((snapshot) => snapshot.duration);
  const nowText = usePlayback((snapshot) => formatMomentTime(snapshot.time));
  const [body, setBody] = useState("");
  const [general, setGeneral] = useState(false);
  const [at, setAt] = useState<At>(null);
  const [errors, setErrors] = useState<{ body?: string; atSeconds?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [posted, setPosted] = useState(false);

  const capture = (): { text: string; seconds: number } => {
    const time = store?.get().time ?? 0;
    const seconds = round(duration === null ? time : Math.min(time, duration));
    return { text: formatMomentTime(seconds), seconds };
  };
  const atText = at?.text ?? nowText;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setPosted(false);
    const found: typeof errors = {};
    const schemas = await loadMomentSchemas();
    const bodyCheck = schemas?.momentBodySchema.safeParse(body);
    if (bodyCheck && !bodyCheck.success) found.body = bodyCheck.error.issues[0].message;
    let atSeconds: number | null = null;
    if (!general) {
      const checked = checkAt(at ?? capture(), duration, schemas);
      if ("error" in checked) found.atSeconds = checked.error;
      else atSeconds = checked.seconds;
    }
    setErrors(found);
    if (found.body || found.atSeconds) return;

    setPending(true);
    const answer = await createMoment({ postId: post.id, atSeconds, body }).catch(() => ({ ok: false as const, error: "We couldn't reach the server — check your connection and try again.", errors: undefined }));
    setPending(false);
    if (!answer.ok) {
      setErrors(answer.errors ?? {});
      if (!answer.errors?.body && !answer.errors?.atSeconds) setFormError(answer.error);
      return;
    }
    dispatch({ type: "upsert", moment: answer.data });
    setBody("");
    setAt(null);
    setPosted(true);
  }

  return (
    <form onSubmit={submit} onFocus={() => void loadMomentSchemas()} noValidate aria-label="Add a comment" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4">
      <TextAreaField
        id="moment-body"
        label="Your comment"
        value={body}
        onChange={(event) => {
          if (!at && !general && !body) setAt(capture());
          setBody(event.target.value);
          setPosted(false);
        }}
        error={errors.body}
        hint={`${body.length}/1000`}
        className="min-h-20"
      />
      <div className="flex flex-col items-start gap-3">
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input type="checkbox" checked={general} onChange={(event) => setGeneral(event.target.checked)} className="h-4 w-4 accent-accent" />
          General comment (not at a time)
        </label>
        {general ? null : (
          <div className="flex items-start gap-2">
            <TextField id="moment-at" label="Time" autoComplete="off" className="max-w-28" value={atText} onChange={(event) => setAt({ text: event.target.value, seconds: null })} error={errors.atSeconds} />
            {at ? (
              <Button variant="ghost" className="mt-[1.625rem]" onClick={() => setAt(null)}>
                Use playback time
              </Button>
            ) : null}
          </div>
        )}
      </div>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Posting…" : general ? "Comment" : `Comment at ${atText}`}
        </Button>
        {posted ? (
          <p role="status" className="text-sm text-success">
            Posted.
          </p>
        ) : null}
      </div>
    </form>
  );
}
