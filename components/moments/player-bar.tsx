"use client";

import { useRef, useState } from "react";
import { lazyComponent } from "@/components/lazy";
import { buttonClasses } from "@/components/ui/button";
import { useMoments } from "./moments-context";
import { usePlaybackStore } from "./playback";

// Chunks of their own: the share panel on the first "Share" (like the reply form), the clip's note
// and stop only for a link with `&end=`.
const SharePanel = lazyComponent(() => import("./share-panel").then((module) => module.SharePanel));
const ClipNote = lazyComponent(() => import("./clip-note").then((module) => module.ClipNote));

/**
 * Under the player: a link's clip ("Clip 1:42–2:10", with "Play whole track") and, with `share`,
 * the "Share" button, whose panel offers the link at the current time.
 */
export function PlayerBar({ share = false, title }: { share?: boolean; title: string }) {
  const { target, post, room } = useMoments();
  const playback = usePlaybackStore();
  const [open, setOpen] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const clip = target.endAt !== null && target.endAt !== undefined;
  if (!clip && !share) return null;

  const close = () => {
    setOpen(null);
    button.current?.focus();
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {clip ? <ClipNote /> : null}
        {share ? (
          <button
            ref={button}
            type="button"
            className={buttonClasses("ghost", "min-h-11 ml-auto")}
            aria-expanded={open !== null}
            onClick={() => (open !== null ? close() : setOpen(Math.floor(playback?.get().time ?? 0)))}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M12 3v12M7 8l5-5 5 5M5 13v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            Share<span className="sr-only"> this post</span>
          </button>
        ) : null}
      </div>
      {share && open !== null ? (
        <SharePanel target={{ kind: "post", slug: room.slug, postId: post.id, time: open }} title={title} onClose={close} />
      ) : null}
    </div>
  );
}
