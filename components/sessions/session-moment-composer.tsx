"use client";

import { useEffect, useRef, useState } from "react";
import { useComposerStanding } from "@/components/moderation/use-standing";
import { registerCommentHere } from "@/components/moments/comment-here";
import { useComposer } from "@/components/moments/use-composer";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";

export interface SessionMomentComposerProps {
  /** The session the comment is made in (undefined: the person listens to another post on their own). */
  sessionId: string | undefined;
  /** The post playing now (null: nothing to comment on). */
  post: { id: string; durationSeconds: number | null } | null;
  /** The player's position now (seconds), or null when nothing plays. */
  getPosition: () => number | null;
  /** A comment made: shown at once on this page (the others get it from the room's channel). */
  onPosted?: (moment: Moment) => void;
  /** Whether commenting is the view's one primary action (not for the host, whose playback control is). */
  primary?: boolean;
  /** The room: the form says when its person is timed out or slowed, and turns off. */
  roomId?: string;
  /** The signed-in person: the room's channel naming them (a timeout given or lifted) has the form ask its standing again. */
  userId?: string;
}

const fields = ["body"] as const;

/**
 * "Comment at 1:42" during a session: stamped with the player's position when the person began
 * typing, and with the session, so it lands for everyone at that second. What was typed stays on
 * any error (the session ended, or moved on to another post).
 */
export function SessionMomentComposer({
  sessionId,
  post,
  getPosition,
  onPosted,
  primary = true,
  roomId,
  userId,
}: SessionMomentComposerProps) {
  const [now, setNow] = useState<number | null>(null);
  const standing = useComposerStanding(roomId ?? null, userId ?? null);
  const composer = useComposer({
    post,
    getPosition,
    sessionId,
    // Stamped where the person started typing (on that post), else where playback is now.
    place: (stamp) =>
      stamp
        ? { ok: true, postId: stamp.postId, atSeconds: stamp.seconds }
        : { ok: false, error: "Nothing is playing — comment once the session plays a post." },
    fields,
    notice: (atSeconds) => `Posted at ${formatMomentTime(atSeconds ?? 0)}.`,
    onPosted: (moment) => {
      standing.posted();
      onPosted?.(moment);
    },
    onRefused: standing.refresh,
  });
  const { body, stamp: current, errors, formError, pending, posted } = composer;

  // The button follows playback until typing begins.
  useEffect(() => {
    const timer = setInterval(() => setNow(getPosition()), 500);
    return () => clearInterval(timer);
  }, [getPosition]);

  const shownSeconds = current?.seconds ?? now;

  // The C shortcut: a comment at the playing time, the focus in its text (what was typed stays).
  const commentHere = useRef<() => string>(() => "");
  useEffect(() => {
    commentHere.current = () => {
      if (standing.silenced) return standing.notice ?? "You can't comment right now";
      if (!post) return "Nothing is playing to comment on yet";
      const stamp = composer.capture();
      composer.setStamp(stamp);
      document.getElementById("session-moment-body")?.focus();
      return stamp ? `Comment at ${stamp.text} — type your comment` : "Type your comment";
    };
  });
  useEffect(() => registerCommentHere(() => commentHere.current()), []);

  return (
    <form
      onSubmit={composer.submit}
      onFocus={composer.loadSchemas}
      noValidate
      aria-label="Comment during the session"
      className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4"
    >
      {standing.silenced ? (
        <p role="status" className="font-medium">
          {standing.notice}
        </p>
      ) : null}
      <fieldset disabled={standing.silenced} className="contents">
        <TextAreaField
          id="session-moment-body"
          label="Comment on this moment"
          value={body}
          onChange={(event) => composer.edit(event.target.value)}
          error={errors.body}
          hint={`${body.length}/1000`}
          className="min-h-16"
        />
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant={primary ? "primary" : "secondary"} disabled={pending || !post || standing.waiting}>
            {pending ? "Posting…" : shownSeconds === null || !post ? "Comment" : `Comment at ${formatMomentTime(shownSeconds)}`}
          </Button>
          {current ? (
            <Button variant="ghost" onClick={() => composer.setStamp(composer.capture())}>
              Use the time now
            </Button>
          ) : null}
          {posted && !standing.silenced ? (
            <p role="status" className="text-sm text-success">
              {posted}
            </p>
          ) : null}
          {standing.waiting ? (
            <p role="status" className="text-sm text-muted">
              {standing.notice}
            </p>
          ) : null}
        </div>
      </fieldset>
    </form>
  );
}
