"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef } from "react";
import { JoinInPlace } from "@/components/rooms/membership-join-in-place";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { currentMoment } from "@/lib/moments/state";
import { MomentComposer } from "./composer";
import { MomentItem } from "./moment-item";
import { useMoments } from "./moments-context";
import { usePlayback } from "./playback";

/** Media time reads back a hair off what was set (1.234 → 1.2339…): a seek to a moment lands on it. */
const tolerance = 0.05;

/**
 * A signed-out visitor or a signed-in non-member reads the comments and is invited to join: a
 * signed-in person joins right here (the player keeps playing); a visitor signs in and comes back.
 */
function JoinPrompt() {
  const { room, post, viewer } = useMoments();
  const signedIn = viewer.userId !== null;
  return (
    <div className="flex flex-col gap-3 rounded-2xl border border-dashed border-line px-4 py-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm">
        {signedIn
          ? `Members of ${room.name} comment and react.${room.gated ? " Joining checks the wallets linked to your account." : ""}`
          : "Join to comment: sign in, then join the room."}
      </p>
      {signedIn ? (
        <JoinInPlace roomId={room.id} roomName={room.name} gated={room.gated ?? false} />
      ) : (
        <Link href={`/login?next=${encodeURIComponent(`/r/${room.slug}/p/${post.id}`)}`} className={buttonClasses("secondary", "min-h-11")}>
          Sign in to join
        </Link>
      )}
    </div>
  );
}

/**
 * The comments in media order, general ones last. The one playback is at is highlighted and kept in
 * view while the list follows playback; scrolling the list stops that until "Follow playback".
 */
export function MomentsSection() {
  const { state, viewer, picked, following, setFollowing, loadMore, loading, loadError, target, targetReady, endFlash } = useMoments();
  const list = useRef<HTMLDivElement>(null);
  const { items, next } = state;

  const highlightedId = usePlayback((snapshot) => {
    const current = currentMoment(items, snapshot.time + tolerance);
    if (picked && current && current.at_seconds === picked.at_seconds && items.some((moment) => moment.id === picked.id)) return picked.id;
    return current?.id ?? null;
  });
  // Playback went past the last loaded comment while more are to come: load the next page.
  const lastTimed = items.findLast((moment) => moment.at_seconds !== null);
  const pastLoaded = usePlayback(
    (snapshot) => next !== null && next.at !== null && lastTimed !== undefined && snapshot.time > (lastTimed.at_seconds ?? 0),
  );
  useEffect(() => {
    if (pastLoaded && following) void loadMore();
  }, [pastLoaded, following, loadMore]);

  const bringIntoView = useCallback((id: string) => {
    const container = list.current;
    const item = container?.querySelector<HTMLElement>(`[data-moment-id="${id}"]`);
    if (!container || !item) return;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top >= container.scrollTop && bottom <= container.scrollTop + container.clientHeight) return;
    container.scrollTop = Math.max(0, top - container.clientHeight / 3);
  }, []);

  // A link to a comment (or a reply): once it is on the page, it is brought into view, focused (a
  // screen reader reads it) and highlighted for a few seconds; the list stops following playback.
  const broughtTarget = useRef(false);
  useEffect(() => {
    if (!targetReady || broughtTarget.current || !target.commentId) return;
    const item = document.querySelector<HTMLElement>(`[data-moment-id="${target.commentId}"]`);
    broughtTarget.current = true;
    if (!item) return endFlash();
    setFollowing(false);
    const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    item.scrollIntoView({ block: "center", behavior: calm ? "auto" : "smooth" });
    item.focus({ preventScroll: true });
    const timer = setTimeout(endFlash, 4000);
    return () => clearTimeout(timer);
  }, [targetReady, target.commentId, setFollowing, endFlash]);

  // The person scrolling the list (wheel, touch, scroll keys, the scrollbar) stops the following;
  // scrolls the page makes itself (following, a resize, a comment removed) do not.
  const stopFollowing = () => setFollowing(false);
  const scrollKeys = ["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End"];

  useEffect(() => {
    if (following && highlightedId && !(target.commentId && !broughtTarget.current)) bringIntoView(highlightedId);
  }, [following, highlightedId, bringIntoView, picked, target.commentId]);

  // A resize (a phone turned, the window narrowed) moves the comments: keep the current one in view.
  useEffect(() => {
    const container = list.current;
    if (!container || !following || !highlightedId) return;
    const observer = new ResizeObserver(() => bringIntoView(highlightedId));
    observer.observe(container);
    return () => observer.disconnect();
  }, [following, highlightedId, bringIntoView, items.length]);

  return (
    <section aria-labelledby="comments-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="comments-heading" className="text-lg font-semibold">
          Comments
        </h2>
        {following ? null : (
          <Button variant="secondary" onClick={() => setFollowing(true)}>
            Follow playback
          </Button>
        )}
      </div>
      {viewer.canComment ? <MomentComposer /> : <JoinPrompt />}
      {items.length === 0 ? (
        <p className="text-muted">
          {viewer.canComment ? "No comments yet — be the first, at a moment or on the whole post." : "No comments yet."}
        </p>
      ) : (
        <div
          ref={list}
          onWheel={stopFollowing}
          onTouchMove={stopFollowing}
          onPointerDown={(event) => event.target === event.currentTarget && stopFollowing()}
          onKeyDown={(event) => {
            const typing = event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement;
            if (!typing && scrollKeys.includes(event.key)) stopFollowing();
          }}
          className="relative max-h-[32rem] overflow-y-auto rounded-2xl border border-line bg-raised p-1.5 sm:p-2"
        >
          <ol aria-label="Comments" className="flex flex-col gap-1">
            {items.map((moment) => (
              <MomentItem key={moment.id} moment={moment} highlighted={moment.id === highlightedId} />
            ))}
          </ol>
          {next ? (
            <div className="flex justify-center p-2">
              <Button variant="secondary" disabled={loading} onClick={() => void loadMore()}>
                {loading ? "Loading…" : "Load more comments"}
              </Button>
            </div>
          ) : null}
        </div>
      )}
      {loadError ? <Alert tone="error">{loadError}</Alert> : null}
    </section>
  );
}
