"use client";

import { type FormEvent, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { createMoment } from "@/lib/moments/actions";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";
import { loadMomentSchemas } from "@/lib/moments/schemas";

export interface SessionMomentComposerProps {
  /** The session the comment is made in (undefined: the person listens to another post on their own). */
  sessionId: string | undefined;
  /** The post playing now (null: nothing to comment on). */
  post: { id: string; durationSeconds: number | null } | null;
  /** The player's position now (seconds), or null when nothing plays. */
  getPosition: () => number | null;
  /** A comment made: shown at once on this page (the others get it from the room's channel). */
  onPosted?: (moment: Moment) => void;
}

/** The moment a person started typing: their comment is stamped there (on that post). */
type Stamp = { postId: string; seconds: number };

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
const unreachable = "We couldn't reach the server — check your connection and try again.";

/**
 * "Comment at 1:42" during a session: stamped with the player's position when the person began
 * typing, and with the session, so it lands for everyone at that second. What was typed stays on
 * any error (the session ended, or moved on to another post).
 */
export function SessionMomentComposer({ sessionId, post, getPosition, onPosted }: SessionMomentComposerProps) {
  const [body, setBody] = useState("");
  const [stamp, setStamp] = useState<Stamp | null>(null);
  const [now, setNow] = useState<number | null>(null);
  const [bodyError, setBodyError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [posted, setPosted] = useState<string | null>(null);

  // The button follows playback until typing begins.
  useEffect(() => {
    const timer = setInterval(() => setNow(getPosition()), 500);
    return () => clearInterval(timer);
  }, [getPosition]);

  const capture = (): Stamp | null => {
    const position = getPosition();
    if (!post || position === null) return null;
    const seconds = round(post.durationSeconds === null ? position : Math.min(position, post.durationSeconds));
    return { postId: post.id, seconds };
  };
  // A stamp on a post that no longer plays is forgotten (the text stays).
  const current = stamp && post && stamp.postId === post.id ? stamp : null;
  const shownSeconds = current?.seconds ?? now;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setPosted(null);
    const checked = (await loadMomentSchemas())?.momentBodySchema.safeParse(body);
    const problem = checked && !checked.success ? checked.error.issues[0].message : undefined;
    setBodyError(problem);
    if (problem) return;
    const at = current ?? capture();
    if (!at) return setFormError("Nothing is playing — comment once the session plays a post.");

    setPending(true);
    const answer = await createMoment({ postId: at.postId, atSeconds: at.seconds, body, sessionId }).catch(() => ({ ok: false as const, error: unreachable, errors: undefined }));
    setPending(false);
    if (!answer.ok) {
      if (answer.errors?.body) setBodyError(answer.errors.body);
      else setFormError(answer.error);
      return;
    }
    onPosted?.(answer.data);
    setBody("");
    setStamp(null);
    setPosted(`Posted at ${formatMomentTime(at.seconds)}.`);
  }

  return (
    <form onSubmit={submit} onFocus={() => void loadMomentSchemas()} noValidate aria-label="Comment during the session" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4">
      <TextAreaField
        id="session-moment-body"
        label="Comment on this moment"
        value={body}
        onChange={(event) => {
          if (!current) setStamp(capture());
          setBody(event.target.value);
          setPosted(null);
        }}
        error={bodyError}
        hint={`${body.length}/1000`}
        className="min-h-16"
      />
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending || !post}>
          {pending ? "Posting…" : shownSeconds === null || !post ? "Comment" : `Comment at ${formatMomentTime(shownSeconds)}`}
        </Button>
        {current ? (
          <Button variant="ghost" onClick={() => setStamp(capture())}>
            Use the time now
          </Button>
        ) : null}
        {posted ? (
          <p role="status" className="text-sm text-success">
            {posted}
          </p>
        ) : null}
      </div>
    </form>
  );
}
