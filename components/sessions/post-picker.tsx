"use client";

import { useEffect, useState } from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { type PostChoice, searchRoomPosts } from "@/lib/sessions/queue-writes";

export interface PostPickerProps {
  roomId: string;
  /** Posts already queued, suggested or playing: not offered. */
  exclude: ReadonlySet<string>;
  action: "add" | "suggest";
  /** Adds (or suggests) the post; true when it went in. */
  onPick: (postId: string) => Promise<boolean>;
  busy: boolean;
  error?: string;
}

const searchDelayMs = 250;

/** The room's posts, searchable by title, to add to the queue (the host) or suggest (members). */
export function PostPicker({ roomId, exclude, action, onPick, busy, error }: PostPickerProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [found, setFound] = useState<{ for: string; posts: PostChoice[] } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const verb = action === "add" ? "Add" : "Suggest";

  useEffect(() => {
    if (!open) return;
    let live = true;
    const timer = setTimeout(async () => {
      const answer = await searchRoomPosts(await loadSupabaseData(), roomId, text).catch(() => null);
      if (!live) return;
      if (!answer?.ok) return setLoadError(answer?.error ?? "We couldn't reach Cuepoint — check your connection and try again.");
      setLoadError(null);
      setFound({ for: text, posts: answer.data });
    }, searchDelayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, roomId, text]);

  const offered = found?.posts.filter((post) => !exclude.has(post.id)) ?? [];
  // The last pick's refusal, shown under the search while it is open, else under its button.
  const errorLine = error ? (
    <p role="alert" className="text-sm text-danger">
      {error}
    </p>
  ) : null;

  return (
    <div className="flex flex-col gap-2 border-t border-line pt-4">
      {open ? (
        <>
          <div className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                id="queue-search"
                type="search"
                label={action === "add" ? "Add a post to the queue" : "Suggest a post"}
                placeholder="Search the room's posts by title"
                autoComplete="off"
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            </div>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Done
            </Button>
          </div>
          {errorLine}
          {loadError ? (
            <p role="alert" className="text-sm text-danger">
              {loadError}
            </p>
          ) : found === null ? (
            <p className="text-sm text-muted">Loading the room&apos;s posts…</p>
          ) : offered.length === 0 ? (
            <p className="text-sm text-muted">
              {found.for.trim()
                ? `No post titled like “${found.for.trim()}” to ${verb.toLowerCase()}.`
                : `No more posts to ${verb.toLowerCase()}.`}
            </p>
          ) : (
            <ul aria-label={`Posts to ${verb.toLowerCase()}`} className="flex max-h-64 flex-col gap-1 overflow-y-auto">
              {offered.map((post) => (
                <li key={post.id} className="flex min-w-0 items-center gap-2">
                  <span className="min-w-0 flex-1 truncate text-sm">{post.title}</span>
                  <Button
                    variant="secondary"
                    className="min-h-9 px-2.5 py-1"
                    disabled={busy}
                    onClick={() => void onPick(post.id)}
                    aria-label={`${verb} ${post.title}`}
                  >
                    {verb}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <>
          <div>
            <Button variant="secondary" onClick={() => setOpen(true)}>
              {action === "add" ? "Add posts" : "Suggest a post"}
            </Button>
          </div>
          {errorLine}
        </>
      )}
    </div>
  );
}
