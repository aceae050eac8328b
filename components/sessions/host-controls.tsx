"use client";

import { useEffect, useRef, useState } from "react";
import { usePlayback } from "@/components/moments/playback";
import { formatDuration } from "@/components/posts/format";
import { Button } from "@/components/ui/button";
import type { SessionPost } from "@/lib/sessions/types";
import { type HostPrimary, hostPrimaryAction } from "@/lib/sessions/host-action";
import { isDjTurns } from "@/lib/sessions/turns";
import { useListeningSession } from "@/lib/sessions/use-listening-session";
import { PostSelect } from "./post-select";
import { ReadyCheckSettings, ReadyCheckStatus, useReadyCheckWaiting } from "./ready-check";

const rates = [0.5, 0.75, 1, 1.25, 1.5, 2];

export const clockText = (seconds: number) => formatDuration(Math.max(1e-9, seconds)) ?? "0:00";

/** Where playback is, as the player has it: "1:02 / 4:10", and a bar (not a control: followers can't seek). */
export function PlaybackTime({ duration, bar = false }: { duration: number | null; bar?: boolean }) {
  const time = usePlayback((snapshot) => Math.floor(snapshot.time));
  const text = `${clockText(time)}${duration ? ` / ${clockText(duration)}` : ""}`;
  return (
    <div className={`flex min-w-0 items-center gap-3 ${bar ? "w-full" : ""}`}>
      {bar && duration ? (
        <div
          role="progressbar"
          aria-label="Playback position"
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.min(time, Math.round(duration))}
          aria-valuetext={text}
          className="h-1.5 min-w-0 flex-1 overflow-hidden rounded-full bg-line"
        >
          <div className="h-full rounded-full bg-accent" style={{ width: `${Math.min(100, (time / duration) * 100)}%` }} />
        </div>
      ) : null}
      <span className="text-sm whitespace-nowrap tabular-nums text-muted">{text}</span>
    </div>
  );
}

/**
 * The host's controls: play/pause, the seek bar, next in queue, speed, and what plays. Each is a
 * change of the session's playback (everyone follows); errors show here, next to them. Exactly one
 * is the primary action at any moment (lib/sessions/host-action.ts): start listening, play, pause,
 * the next in the queue, or play again once a post has played out.
 */
export function HostControls({
  posts,
  armed,
  onArm,
  blocked,
}: {
  posts: SessionPost[];
  armed: boolean;
  onArm: () => void;
  blocked: boolean;
}) {
  const { playback, duration, actions, busy, error, queue, session } = useListeningSession();
  // In DJ turns each turn plays the post its DJ picked (the waitlist panel changes it), so no other post is offered here.
  const djTurns = isDjTurns(session);
  const time = usePlayback((snapshot) => snapshot.time);
  const [dragging, setDragging] = useState<number | null>(null);
  const slider = useRef<HTMLInputElement>(null);
  const commit = useRef<(seconds: number) => void>(() => {});
  const [choice, setChoice] = useState("");
  const hasPost = Boolean(playback?.postId);
  const queued = queue.filter((entry) => entry.status === "queued" && entry.post_id !== playback?.postId).length;
  // While the ready check waits, its "Start anyway" is the one primary action (./ready-check.tsx).
  const waiting = useReadyCheckWaiting();
  const primary = waiting
    ? null
    : hostPrimaryAction({
        hasPost,
        playing: playback?.playing ?? false,
        positionSeconds: playback?.positionSeconds ?? 0,
        duration,
        queued,
        armed,
      });
  const variant = (action: HostPrimary) => (primary === action ? "primary" : "secondary");
  const act = (run: () => Promise<boolean>) => {
    onArm();
    void run();
  };
  const seekTo = (seconds: number) => act(() => actions.seek(seconds));
  useEffect(() => {
    commit.current = (seconds) => {
      setDragging(null);
      seekTo(seconds);
    };
  });
  // A seek happens when the slider's value is committed (released, or a key press), not on each
  // step of a drag: the DOM's own `change` event (React's onChange fires on every input).
  useEffect(() => {
    const input = slider.current;
    if (!input) return;
    const committed = () => commit.current(Number(input.value));
    input.addEventListener("change", committed);
    return () => input.removeEventListener("change", committed);
  }, [hasPost]);

  return (
    <section aria-labelledby="host-controls" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <h2 id="host-controls" className="text-lg font-semibold">
        You&apos;re hosting
      </h2>
      {primary === "listen" ? (
        <div className="flex flex-col items-start gap-2">
          <Button onClick={onArm}>Start listening</Button>
          <p className="text-sm text-muted">
            {blocked ? "Your browser held the sound back — click to start listening." : "Click to hear the session from where it is now."}
          </p>
        </div>
      ) : null}
      {hasPost ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            {playback?.playing ? (
              <Button variant={variant("pause")} onClick={() => act(actions.pause)}>
                Pause
              </Button>
            ) : (
              <Button variant={primary === "replay" ? "primary" : variant("play")} onClick={() => act(actions.play)} disabled={waiting}>
                {primary === "replay" ? "Play again" : "Play"}
              </Button>
            )}
            <Button variant={variant("queue")} onClick={() => act(actions.next)} disabled={queued === 0}>
              Next in queue
            </Button>
            <label className="flex items-center gap-2 text-sm">
              <span>Speed</span>
              <select
                value={String(playback?.rate ?? 1)}
                onChange={(event) => act(() => actions.setRate(Number(event.target.value)))}
                className="min-h-10 rounded-lg border border-line bg-raised px-2 text-base"
              >
                {rates.map((rate) => (
                  <option key={rate} value={String(rate)}>
                    {rate}×
                  </option>
                ))}
              </select>
            </label>
          </div>
          {primary === "queue" ? <p className="text-sm text-muted">That post has played out — play the next one in the queue.</p> : null}
          <ReadyCheckStatus />
          <label className="flex flex-col gap-1 text-sm">
            <span>Position</span>
            <input
              type="range"
              min={0}
              max={duration ?? Math.max(time, 1)}
              step={0.1}
              value={dragging ?? time}
              aria-valuetext={clockText(dragging ?? time)}
              ref={slider}
              onChange={(event) => setDragging(Number(event.target.value))}
              className="w-full accent-[var(--color-accent)]"
            />
          </label>
        </>
      ) : primary === "queue" ? (
        <div className="flex flex-col items-start gap-2">
          <p className="text-muted">Nothing is playing yet — the queue is ready.</p>
          <Button onClick={() => act(actions.next)}>Play the queue</Button>
        </div>
      ) : (
        <p className="text-muted">Nothing is playing yet — choose a post to play.</p>
      )}
      {djTurns ? null : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (choice) act(() => actions.playPost(choice));
          }}
        >
          <PostSelect label="Play a post now" none="Choose a post…" posts={posts} value={choice} onChange={setChoice} />
          <Button type="submit" variant={primary === "choose" && choice ? "primary" : "secondary"} disabled={!choice || busy}>
            Play now
          </Button>
        </form>
      )}
      <ReadyCheckSettings />
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
