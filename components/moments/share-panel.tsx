"use client";

import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { momentShareLink, postShareLink, siteOrigin } from "@/lib/moments/share-link";
import { formatMomentTime, parseMomentTime } from "@/lib/moments/time";
import { usePlayback } from "./playback";

/** What is shared: the post (from a time, to an optional end) or one comment or reply. */
export type ShareTarget = { kind: "post"; slug: string; postId: string; time: number } | { kind: "moment"; momentId: string };

const fieldClasses = "min-h-11 rounded-lg border border-line bg-raised px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger";

/** A typed time's value, or the words saying what is wrong with it (empty text: none). */
function readTime(text: string, what: "start" | "end"): { value: number | null; error: string | null } {
  if (!text.trim()) return { value: null, error: null };
  const value = parseMomentTime(text);
  if (value === null || value < 0)
    return { value: null, error: `Write the ${what} as a time, like ${what === "start" ? "1:42" : "2:10"}.` };
  return { value: Math.floor(value), error: null };
}

/**
 * The share panel (a non-modal dialog under its button, loaded on first use): the link in a
 * read-only field, "Copy link", and "Share…" where the browser has a share sheet. For the post, the
 * link starts at the time it was opened at (a checkbox) and may stop at an end (a clip). Escape or
 * "Close" closes it; the button that opened it takes the focus back.
 */
export function SharePanel({ target, title, onClose }: { target: ShareTarget; title: string; onClose: () => void }) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const duration = usePlayback((snapshot) => snapshot.duration);
  const [useStart, setUseStart] = useState(target.kind === "post" && target.time >= 1);
  const [startText, setStartText] = useState(target.kind === "post" ? formatMomentTime(target.time) : "");
  const [endText, setEndText] = useState("");
  const [status, setStatus] = useState("");
  // Only ever rendered in the browser, after a click: no server HTML to match.
  const canShare = typeof navigator !== "undefined" && typeof navigator.share === "function";

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>("input")?.focus();
  }, []);

  const origin = siteOrigin(process.env.NEXT_PUBLIC_SITE_URL, typeof window === "undefined" ? "" : window.location.origin);
  const start = readTime(startText, "start");
  const end = readTime(endText, "end");
  const from = useStart ? start.value : null;
  let endError = end.error;
  if (!endError && end.value !== null && end.value <= (from ?? 0)) endError = "The end must come after the start.";
  if (!endError && end.value !== null && duration !== null && end.value > duration + 0.5)
    endError = `The end must be within the track (${formatMomentTime(duration)}).`;
  const link =
    target.kind === "post"
      ? postShareLink(origin, { slug: target.slug, id: target.postId }, { start: from, end: endError ? null : end.value })
      : momentShareLink(origin, target.momentId);

  async function copy() {
    setStatus("");
    try {
      await navigator.clipboard.writeText(link);
      setStatus("Link copied");
    } catch {
      // No clipboard (an old browser, a refused permission): the link is selected for the person to copy.
      field.current?.focus();
      field.current?.select();
      setStatus("Couldn't copy it for you — the link is selected: press Ctrl+C (⌘C on a Mac) to copy it.");
    }
  }

  async function share() {
    try {
      await navigator.share({ title, url: link });
    } catch {
      // Closed without sharing, or refused: nothing to say.
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    onClose();
  }

  const label = target.kind === "post" ? "Share this post" : "Share this comment";
  return (
    <div
      ref={panel}
      id={`${id}-panel`}
      role="dialog"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex w-full flex-col gap-3 rounded-xl border border-line bg-raised p-3 text-sm shadow-lg sm:p-4"
    >
      {target.kind === "post" ? (
        <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
          <div className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <label className="flex min-h-11 cursor-pointer items-center gap-2 font-medium">
                <input
                  type="checkbox"
                  className="h-5 w-5 accent-accent"
                  checked={useStart}
                  onChange={(event) => setUseStart(event.target.checked)}
                />
                Start at
              </label>
              <input
                aria-label="Start time"
                className={`${fieldClasses} w-24 font-mono`}
                inputMode="numeric"
                value={startText}
                disabled={!useStart}
                aria-invalid={useStart && start.error ? true : undefined}
                aria-describedby={useStart && start.error ? `${id}-start-error` : undefined}
                onChange={(event) => setStartText(event.target.value)}
              />
            </div>
            {useStart && start.error ? (
              <p id={`${id}-start-error`} className="text-danger">
                {start.error}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <label htmlFor={`${id}-end`} className="font-medium">
                End at
              </label>
              <input
                id={`${id}-end`}
                className={`${fieldClasses} w-24 font-mono`}
                inputMode="numeric"
                placeholder="—"
                value={endText}
                aria-invalid={endError ? true : undefined}
                aria-describedby={`${id}-end-${endError ? "error" : "hint"}`}
                onChange={(event) => setEndText(event.target.value)}
              />
            </div>
            {endError ? (
              <p id={`${id}-end-error`} className="text-danger">
                {endError}
              </p>
            ) : (
              <p id={`${id}-end-hint`} className="text-muted">
                Optional: the link plays up to there, then stops.
              </p>
            )}
          </div>
        </div>
      ) : null}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-link`} className="font-medium">
          Link
        </label>
        <input
          ref={field}
          id={`${id}-link`}
          readOnly
          value={link}
          onFocus={(event) => event.target.select()}
          className={`${fieldClasses} w-full min-w-0 font-mono text-sm`}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClasses("secondary", "min-h-11")} onClick={() => void copy()}>
          Copy link
        </button>
        {canShare ? (
          <button type="button" className={buttonClasses("ghost", "min-h-11")} onClick={() => void share()}>
            Share…
          </button>
        ) : null}
        <button type="button" className={buttonClasses("ghost", "min-h-11 ml-auto")} onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="min-h-5 text-muted">
        {status}
      </p>
    </div>
  );
}
