"use client";

import { type ComponentType, type Ref, startTransition, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { nextTask } from "@/lib/next-task";

type PlayerProps = {
  ref?: Ref<HTMLVideoElement>;
  src: string;
  controls?: boolean;
  light?: string | boolean;
  width?: string;
  height?: string;
  title?: string;
  style?: React.CSSProperties;
};

const loadPlayer = () => import("react-player");
/** Starts the download early (a pointer on the play button); a failure shows when the player loads for real. */
const preloadPlayer = () => void loadPlayer().catch(() => {});
const never = () => () => {};

/**
 * The player, loaded after the page's first paint (react-player and its players are not in the
 * page's first-load JavaScript). Until then, the thumbnail or a placeholder holds the space. Inside
 * a PlaybackProvider, its media element is attached there (time, duration, seeking for moments).
 *
 * With `loadOnPlay` (a hosted player or a stream: YouTube, Vimeo, HLS, …, whose code, element and
 * iframe are most of the page's work), the thumbnail (or a dark frame) stands in with a play button
 * until the person plays it or jumps to a moment: then the player loads and starts there. Pointing
 * at the button or focusing it starts the download. Without a PlaybackProvider it loads at once.
 */
export function PostPlayer({
  src: given,
  audio,
  poster,
  title,
  controls = true,
  loadOnPlay = false,
}: {
  src: string;
  audio: boolean;
  poster?: string | null;
  title: string;
  /** The media's own controls (off where the page drives playback, as a session does). */
  controls?: boolean;
  loadOnPlay?: boolean;
}) {
  const src = useSameMedia(given);
  const [Player, setPlayer] = useState<ComponentType<PlayerProps> | null>(null);
  const [failed, setFailed] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const playback = usePlaybackStore();
  const sought = useSyncExternalStore(
    playback ? playback.subscribe : never,
    () => playback?.sought() ?? false,
    () => false,
  );
  const waiting = loadOnPlay && playback !== null && !sought;
  useEffect(() => {
    if (waiting) return;
    let live = true;
    // In a task of its own: the page's other effects start loads too (see lib/next-task.ts).
    nextTask()
      .then(loadPlayer)
      .then(
        // A transition: React renders the player in slices, between which the page stays responsive.
        (module) => live && startTransition(() => setPlayer(() => module.default as unknown as ComponentType<PlayerProps>)),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [waiting]);
  useEffect(() => (Player && frame.current ? nameEmbeddedFrames(frame.current, `${title} — player`) : undefined), [Player, title]);
  const frameClasses = audio ? "h-14 w-full" : "aspect-video w-full overflow-hidden rounded-2xl bg-black";
  if (failed) return <p className="text-danger">The player didn&apos;t load — check your connection and reload the page.</p>;
  const thumbnail = poster ? (
    // eslint-disable-next-line @next/next/no-img-element -- provider thumbnail while the player loads
    <img src={poster} alt="" className="h-full w-full object-cover" />
  ) : null;
  return (
    <div ref={frame} className={frameClasses} data-player-ready={Player ? "true" : "false"}>
      {Player ? (
        <Player
          ref={playback?.attach}
          src={src}
          controls={controls}
          width="100%"
          height="100%"
          title={title}
          style={{ width: "100%", height: "100%" }}
        />
      ) : waiting ? (
        <button
          type="button"
          aria-label={`Play ${title}`}
          className={`group relative flex h-full w-full items-center justify-center overflow-hidden ${audio ? "rounded-xl bg-raised ring-1 ring-line" : ""}`}
          onPointerEnter={preloadPlayer}
          onFocus={preloadPlayer}
          onClick={() => playback?.seek(playback.get().time, { play: true })}
        >
          {thumbnail ? <span className="absolute inset-0">{thumbnail}</span> : null}
          <span className="relative flex h-14 w-14 items-center justify-center rounded-full bg-black/70 text-white shadow-lg transition-colors group-hover:bg-accent group-focus-visible:bg-accent">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="ml-1 h-7 w-7" fill="currentColor">
              <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
            </svg>
          </span>
        </button>
      ) : (
        thumbnail
      )}
    </div>
  );
}

/**
 * Players for hosted media (YouTube, Vimeo, …) are custom elements that put the provider's iframe in
 * their shadow root without a title; screen readers need one. Names each such iframe, now and
 * whenever a player replaces it.
 */
function nameEmbeddedFrames(container: HTMLElement, name: string): () => void {
  const observers: MutationObserver[] = [];
  const name_ = (root: ParentNode) => {
    for (const iframe of root.querySelectorAll("iframe")) if (!iframe.title) iframe.title = name;
  };
  const watch = () => {
    name_(container);
    for (const element of container.querySelectorAll("*")) {
      const shadow = element.shadowRoot;
      if (!shadow || observers.some((observer) => (observer as MutationObserver & { root?: ShadowRoot }).root === shadow)) continue;
      name_(shadow);
      const observer = Object.assign(new MutationObserver(() => name_(shadow)), { root: shadow });
      observer.observe(shadow, { childList: true, subtree: true });
      observers.push(observer);
    }
  };
  const top = new MutationObserver(watch);
  top.observe(container, { childList: true, subtree: true });
  watch();
  return () => {
    top.disconnect();
    for (const observer of observers) observer.disconnect();
  };
}

/** A URL without its query: an uploaded file's signed URL gets a new token on each render of the page. */
const withoutQuery = (url: string) => url.split("?")[0];

/**
 * The URL the player keeps while it points at the same media: a re-render of the page (joining the
 * room in place, after an action) signs the file's URL again, and a new `src` would reload the
 * element and stop what is playing. A different file or link is taken at once.
 */
function useSameMedia(src: string): string {
  const [kept, setKept] = useState(src);
  if (withoutQuery(kept) !== withoutQuery(src)) {
    setKept(src);
    return src;
  }
  return kept;
}
