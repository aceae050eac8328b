"use client";

import { type ComponentType, useEffect, useState } from "react";

type PlayerProps = { src: string; controls?: boolean; light?: string | boolean; width?: string; height?: string; title?: string; style?: React.CSSProperties };

/**
 * The player, loaded after the page's first paint (react-player and its players are not in the
 * page's first-load JavaScript). Until then, the thumbnail or a placeholder holds the space.
 */
export function PostPlayer({ src, audio, poster, title }: { src: string; audio: boolean; poster?: string | null; title: string }) {
  const [Player, setPlayer] = useState<ComponentType<PlayerProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("react-player").then(
      (module) => live && setPlayer(() => module.default as unknown as ComponentType<PlayerProps>),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const frame = audio ? "h-14 w-full" : "aspect-video w-full overflow-hidden rounded-2xl bg-black";
  if (failed) return <p className="text-danger">The player didn&apos;t load — check your connection and reload the page.</p>;
  return (
    <div className={frame} data-player-ready={Player ? "true" : "false"}>
      {Player ? (
        <Player src={src} controls width="100%" height="100%" title={title} style={{ width: "100%", height: "100%" }} />
      ) : poster ? (
        // eslint-disable-next-line @next/next/no-img-element -- provider thumbnail while the player loads
        <img src={poster} alt="" className="h-full w-full object-cover" />
      ) : null}
    </div>
  );
}
