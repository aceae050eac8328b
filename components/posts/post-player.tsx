"use client";

import { type ComponentType, type Ref, startTransition, useEffect, useRef, useState } from "react";
import { usePlaybackStore } from "@/components/moments/playback";
import { nextTask } from "@/lib/next-task";

type PlayerProps = { ref?: Ref<HTMLVideoElement>; src: string; controls?: boolean; light?: string | boolean; width?: string; height?: string; title?: string; style?: React.CSSProperties };

/**
 * The player, loaded after the page's first paint (react-player and its players are not in the
 * page's first-load JavaScript). Until then, the thumbnail or a placeholder holds the space. Inside
 * a PlaybackProvider, its media element is attached there (time, duration, seeking for moments).
 */
export function PostPlayer({ src, audio, poster, title, controls = true }: { src: string; audio: boolean; poster?: string | null; title: string; /** The media's own controls (off where the page drives playback, as a session does). */ controls?: boolean }) {
  const [Player, setPlayer] = useState<ComponentType<PlayerProps> | null>(null);
  const [failed, setFailed] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const playback = usePlaybackStore();
  useEffect(() => {
    let live = true;
    // In a task of its own: the page's other effects start loads too (see lib/next-task.ts).
    nextTask().then(() => import("react-player")).then(
      // A transition: React renders the player in slices, between which the page stays responsive.
      (module) => live && startTransition(() => setPlayer(() => module.default as unknown as ComponentType<PlayerProps>)),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => (Player && frame.current ? nameEmbeddedFrames(frame.current, `${title} — player`) : undefined), [Player, title]);
  const frameClasses = audio ? "h-14 w-full" : "aspect-video w-full overflow-hidden rounded-2xl bg-black";
  if (failed) return <p className="text-danger">The player didn&apos;t load — check your connection and reload the page.</p>;
  return (
    <div ref={frame} className={frameClasses} data-player-ready={Player ? "true" : "false"}>
      {Player ? (
        <Player ref={playback?.attach} src={src} controls={controls} width="100%" height="100%" title={title} style={{ width: "100%", height: "100%" }} />
      ) : poster ? (
        // eslint-disable-next-line @next/next/no-img-element -- provider thumbnail while the player loads
        <img src={poster} alt="" className="h-full w-full object-cover" />
      ) : null}
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
