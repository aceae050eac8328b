"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import { Button } from "@/components/ui/button";
import { lastSortKey, movedSortKey, type PendingWrite, queueView, withPending } from "@/lib/sessions/queue";
import { queueMessages } from "@/lib/sessions/queue-errors";
import { addToQueue, queueDetails, removeFromQueue, updateQueueEntry } from "@/lib/sessions/queue-writes";
import type { QueueEntry, RoomRole, SessionActionResult } from "@/lib/sessions/types";
import { PostPicker } from "./post-picker";

export interface QueueViewer {
  userId: string;
  role: RoomRole;
  isHost: boolean;
}

export interface QueuePanelProps {
  session: { id: string; roomId: string };
  /** The post playing now: not shown in the queue. */
  playingPostId: string | null;
  /** The queue as the session's channel has it (live). */
  queue: QueueEntry[];
  viewer: QueueViewer;
  /** Titles and names the page already knows (posts, listeners), by id. */
  known?: { posts?: Record<string, string>; people?: Record<string, string> };
}

/** How long an own write shows before the channel's view of the queue wins anyway. */
const pendingMs = 8_000;
const expiry = () => Date.now() + pendingMs;

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const rest = { ...record };
  delete rest[key];
  return rest;
}

/**
 * The session's queue: what plays next (the host reorders, removes), then members' suggestions (the
 * host accepts or removes them; people withdraw their own). The host adds posts; others suggest.
 * Writes go straight to session_queue; the policies decide, and a refusal shows next to its control.
 */
export function QueuePanel({ session, playingPostId, queue, viewer, known }: QueuePanelProps) {
  const [pending, setPending] = useState<PendingWrite[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [now, setNow] = useState(() => Date.now());
  // Own writes the channel now shows (or that expired) are dropped as the queue arrives: a later
  // change by someone else must not be covered by an old write of this page.
  const [seen, setSeen] = useState({ queue, now });
  if (seen.queue !== queue || seen.now !== now) {
    setSeen({ queue, now });
    const open = withPending(queue, pending, now).pending;
    if (open.length !== pending.length) setPending(open);
  }
  const { entries } = useMemo(() => withPending(queue, pending, now), [queue, pending, now]);
  const view = useMemo(() => queueView(entries, playingPostId), [entries, playingPostId]);
  const names = useNames(entries, known);
  const canModerate = viewer.role === "owner" || viewer.role === "moderator";

  // While writes are pending, look again when the oldest would expire.
  useEffect(() => {
    if (!pending.length) return;
    const next = Math.min(...pending.map((write) => write.expiresAt));
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [pending]);

  const run = useCallback(async (control: string, write: () => Promise<SessionActionResult<unknown>>, optimistic?: PendingWrite) => {
    setErrors((state) => without(state, control));
    setBusy((state) => ({ ...state, [control]: true }));
    if (optimistic) setPending((list) => [...list.filter((item) => item.id !== optimistic.id), optimistic]);
    const answer = await write().catch((): SessionActionResult<unknown> => ({ ok: false, error: queueMessages.unreachable }));
    setBusy((state) => without(state, control));
    if (!answer.ok) {
      if (optimistic) setPending((list) => list.filter((item) => item !== optimistic));
      setErrors((state) => ({ ...state, [control]: answer.error }));
      return false;
    }
    return true;
  }, []);

  const add = async (postId: string) => {
    let added: QueueEntry | null = null;
    const ok = await run("picker", async () => {
      const answer = await addToQueue(await loadSupabaseData(), { sessionId: session.id, postId, userId: viewer.userId });
      if (answer.ok) added = answer.data;
      return answer;
    });
    if (ok && added) setPending((list) => [...list, { id: (added as QueueEntry).id, entry: added, expiresAt: expiry() }]);
    return ok;
  };

  const move = (entry: QueueEntry, direction: -1 | 1) => {
    const key = movedSortKey(view.queued, entry.id, direction);
    if (key === null) return setErrors((state) => ({ ...state, [entry.id]: queueMessages.cannotMove }));
    void run(entry.id, async () => updateQueueEntry(await loadSupabaseData(), entry.id, { sort_key: key }), {
      id: entry.id,
      entry: { ...entry, sort_key: key },
      expiresAt: expiry(),
    });
  };

  const accept = (entry: QueueEntry) => {
    const key = lastSortKey(view.queued);
    void run(entry.id, async () => updateQueueEntry(await loadSupabaseData(), entry.id, { sort_key: key, status: "queued" }), {
      id: entry.id,
      entry: { ...entry, status: "queued", sort_key: key },
      expiresAt: expiry(),
    });
  };

  const remove = (entry: QueueEntry) => {
    void run(entry.id, async () => removeFromQueue(await loadSupabaseData(), entry.id), { id: entry.id, entry: null, expiresAt: expiry() });
  };

  const taken = useMemo(
    () => new Set([...entries.map((entry) => entry.post_id), ...(playingPostId ? [playingPostId] : [])]),
    [entries, playingPostId],
  );
  const title = (entry: QueueEntry) => names.posts[entry.post_id] ?? "A post";

  return (
    <section aria-labelledby="queue-heading" className="flex flex-col gap-4 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <h2 id="queue-heading" className="text-base font-semibold">
        Up next
      </h2>
      {view.queued.length === 0 ? (
        <p className="text-sm text-muted">Nothing queued yet.</p>
      ) : (
        <ol aria-label="Queue" className="flex flex-col gap-2">
          {view.queued.map((entry, index) => (
            <li key={entry.id} className="flex flex-col gap-1" data-queue-entry={entry.post_id}>
              <div className="flex min-w-0 items-center gap-2">
                <span aria-hidden="true" className="w-6 shrink-0 text-right text-sm tabular-nums text-muted">
                  {index + 1}.
                </span>
                <span className="min-w-0 flex-1 truncate text-sm font-medium" data-queue-title>
                  {title(entry)}
                </span>
                {viewer.isHost ? (
                  <>
                    <IconButton label={`Move ${title(entry)} up`} disabled={index === 0 || busy[entry.id]} onClick={() => move(entry, -1)}>
                      ↑
                    </IconButton>
                    <IconButton
                      label={`Move ${title(entry)} down`}
                      disabled={index === view.queued.length - 1 || busy[entry.id]}
                      onClick={() => move(entry, 1)}
                    >
                      ↓
                    </IconButton>
                  </>
                ) : null}
                {viewer.isHost || canModerate ? (
                  <IconButton label={`Remove ${title(entry)} from the queue`} disabled={busy[entry.id]} onClick={() => remove(entry)}>
                    ✕
                  </IconButton>
                ) : null}
              </div>
              <ControlError message={errors[entry.id]} />
            </li>
          ))}
        </ol>
      )}

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Suggestions</h3>
        {view.suggested.length === 0 ? (
          <p className="text-sm text-muted">{viewer.isHost ? "No suggestions yet." : "Nothing suggested yet — suggest a post below."}</p>
        ) : (
          <ul aria-label="Suggestions" className="flex flex-col gap-2">
            {view.suggested.map((entry) => {
              const own = entry.added_by === viewer.userId;
              const by = own ? "you" : entry.added_by ? (names.people[entry.added_by] ?? "a member") : "a member";
              return (
                <li key={entry.id} className="flex flex-col gap-1" data-suggestion={entry.post_id}>
                  <div className="flex min-w-0 flex-wrap items-center gap-2">
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="truncate text-sm font-medium">{title(entry)}</span>
                      <span className="text-xs text-muted [overflow-wrap:anywhere]">Suggested by {by}</span>
                    </span>
                    {viewer.isHost ? (
                      <Button
                        variant="secondary"
                        className="min-h-9 px-2.5 py-1"
                        disabled={busy[entry.id]}
                        onClick={() => accept(entry)}
                        aria-label={`Accept ${title(entry)}`}
                      >
                        Accept
                      </Button>
                    ) : null}
                    {own && !viewer.isHost ? (
                      <Button
                        variant="ghost"
                        className="min-h-9 px-2.5 py-1"
                        disabled={busy[entry.id]}
                        onClick={() => remove(entry)}
                        aria-label={`Withdraw your suggestion of ${title(entry)}`}
                      >
                        Withdraw
                      </Button>
                    ) : viewer.isHost || canModerate ? (
                      <IconButton
                        label={`Remove the suggestion of ${title(entry)}`}
                        disabled={busy[entry.id]}
                        onClick={() => remove(entry)}
                      >
                        ✕
                      </IconButton>
                    ) : null}
                  </div>
                  <ControlError message={errors[entry.id]} />
                </li>
              );
            })}
          </ul>
        )}
      </div>

      <PostPicker
        roomId={session.roomId}
        exclude={taken}
        action={viewer.isHost ? "add" : "suggest"}
        onPick={add}
        busy={Boolean(busy.picker)}
        error={errors.picker}
      />
    </section>
  );
}

function IconButton({ label, children, ...props }: { label: string; children: string; disabled?: boolean; onClick: () => void }) {
  return (
    <Button variant="ghost" className="min-h-9 w-9 shrink-0 px-0 py-1 sm:px-0" aria-label={label} title={label} {...props}>
      <span aria-hidden="true">{children}</span>
    </Button>
  );
}

function ControlError({ message }: { message?: string }) {
  return message ? (
    <p role="alert" className="text-sm text-danger">
      {message}
    </p>
  ) : null;
}

/** Titles of the queue's posts and names of who suggested them: what the page knows, the rest read once. */
function useNames(entries: QueueEntry[], known: QueuePanelProps["known"]) {
  const [fetched, setFetched] = useState<{ posts: Record<string, string>; people: Record<string, string> }>({ posts: {}, people: {} });
  const asked = useRef(new Set<string>());
  const posts = useMemo(() => ({ ...fetched.posts, ...known?.posts }), [fetched.posts, known?.posts]);
  const people = useMemo(() => ({ ...fetched.people, ...known?.people }), [fetched.people, known?.people]);
  const missing = [
    ...new Set([
      ...entries.filter((entry) => !posts[entry.post_id]).map((entry) => `post:${entry.post_id}`),
      ...entries.filter((entry) => entry.added_by && !people[entry.added_by]).map((entry) => `person:${entry.added_by}`),
    ]),
  ].join(",");
  useEffect(() => {
    const keys = missing ? missing.split(",").filter((key) => !asked.current.has(key)) : [];
    if (!keys.length) return;
    for (const key of keys) asked.current.add(key);
    const ids = (kind: string) => keys.filter((key) => key.startsWith(`${kind}:`)).map((key) => key.slice(kind.length + 1));
    void loadSupabaseData()
      .then((data) => queueDetails(data, ids("post"), ids("person")))
      .then(
        (found) => setFetched((state) => ({ posts: { ...state.posts, ...found.posts }, people: { ...state.people, ...found.people } })),
        () => {
          for (const key of keys) asked.current.delete(key);
        },
      );
  }, [missing]);
  return { posts, people };
}
