"use client";

import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { MentionTextArea } from "@/components/mentions/mention-textarea";
import { placeStamp } from "@/lib/moments/composer-state";
import { formatMomentTime } from "@/lib/moments/time";
import { momentMessages } from "@/lib/moments/rules";
import { useComposerStanding } from "@/components/moderation/use-standing";
import { useMoments } from "./moments-context";
import { usePlayback, usePlaybackStore } from "./playback";
import { registerCommentHere } from "./comment-here";
import { useComposer } from "./use-composer";

const fields = ["body", "atSeconds"] as const;

/**
 * "Comment at 1:42": the time follows playback until the person starts typing (then it is captured)
 * or types a time of their own; or a general comment, at no time. What was typed stays on any error.
 */
export function MomentComposer() {
  const { post, room, viewer, dispatch } = useMoments();
  const standing = useComposerStanding(room.id, viewer.userId);
  const store = usePlaybackStore();
  const duration = usePlayback((snapshot) => snapshot.duration);
  const nowText = usePlayback((snapshot) => formatMomentTime(snapshot.time));
  const [general, setGeneral] = useState(false);
  const composer = useComposer({
    post: { id: post.id, durationSeconds: duration },
    getPosition: () => store?.get().time ?? 0,
    stampsWhenTyping: (bodyBefore) => !general && !bodyBefore,
    place: (stamp, schemas) => {
      if (general) return { ok: true, postId: post.id, atSeconds: null };
      return stamp
        ? placeStamp(stamp, duration, schemas?.momentAtSchema ?? null)
        : { ok: false, field: "atSeconds", error: momentMessages.atInvalid };
    },
    fields,
    notice: () => "Posted.",
    onPosted: (moment) => {
      standing.posted();
      dispatch({ type: "upsert", moment });
    },
    onRefused: standing.refresh,
  });
  const { body, stamp: at, errors, formError, pending, posted } = composer;
  // The C shortcut: a comment at the playing time, the focus in its text (what was typed stays).
  const commentHere = useRef<() => string>(() => "");
  useEffect(() => {
    commentHere.current = () => {
      if (standing.silenced) return standing.notice ?? "You can't comment right now";
      const stamp = composer.capture();
      setGeneral(false);
      composer.setStamp(stamp);
      document.getElementById("moment-body")?.focus();
      return `Comment at ${stamp?.text ?? nowText} — type your comment`;
    };
  });
  useEffect(() => registerCommentHere(() => commentHere.current()), []);
  const atText = at?.text ?? nowText;

  return (
    <form
      onSubmit={composer.submit}
      onFocus={composer.loadSchemas}
      noValidate
      aria-label="Add a comment"
      className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4"
    >
      {standing.silenced ? (
        <p role="status" className="font-medium">
          {standing.notice}
        </p>
      ) : null}
      <fieldset disabled={standing.silenced} className="contents">
        <MentionTextArea
          id="moment-body"
          roomId={room.id}
          label="Your comment"
          value={body}
          onValueChange={composer.edit}
          error={errors.body}
          hint={`${body.length}/1000`}
          className="min-h-20"
        />
        <div className="flex flex-col items-start gap-3">
          <label className="flex min-h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={general}
              onChange={(event) => setGeneral(event.target.checked)}
              className="h-4 w-4 accent-accent"
            />
            General comment (not at a time)
          </label>
          {general ? null : (
            <div className="flex items-start gap-2">
              <TextField
                id="moment-at"
                label="Time"
                autoComplete="off"
                className="max-w-28"
                value={atText}
                onChange={(event) => composer.setStamp({ postId: post.id, text: event.target.value, seconds: null })}
                error={errors.atSeconds}
              />
              {at ? (
                <Button variant="ghost" className="mt-[1.625rem]" onClick={() => composer.setStamp(null)}>
                  Use playback time
                </Button>
              ) : null}
            </div>
          )}
        </div>
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending || standing.waiting}>
            {pending ? "Posting…" : general ? "Comment" : `Comment at ${atText}`}
          </Button>
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
