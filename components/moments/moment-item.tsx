"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import { formatPostDate } from "@/components/posts/format";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { linkClasses } from "@/components/ui/link";
import { addReaction, deleteMoment, removeReaction, updateMoment } from "@/lib/moments/actions";
import { withheldNote } from "@/lib/moderation/held";
import { momentActionMessages } from "@/lib/moments/errors";
import { reactionCounts } from "@/lib/moments/state";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";
import { reactionEmoji } from "@/lib/moments/rules";
import { loadMomentSchemas } from "@/lib/moments/schemas";
import { ReportButton } from "@/components/moderation/report-button";
import { useMoments } from "./moments-context";
import { authorName } from "./names";

const offline = "We couldn't reach the server — check your connection and try again.";

function EditMoment({ moment, onDone }: { moment: Moment; onDone: () => void }) {
  const { dispatch } = useMoments();
  const [body, setBody] = useState(moment.body);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function save(event: React.FormEvent) {
    event.preventDefault();
    const checked = (await loadMomentSchemas())?.momentBodySchema.safeParse(body);
    if (checked && !checked.success) return setError(checked.error.issues[0].message);
    setPending(true);
    const answer = await updateMoment({ momentId: moment.id, body }).catch(() => ({ ok: false as const, error: offline }));
    setPending(false);
    if (!answer.ok) return setError(answer.error);
    dispatch({ type: "upsert", moment: { ...moment, ...answer.data } });
    onDone();
  }
  return (
    <form onSubmit={save} onFocus={() => void loadMomentSchemas()} noValidate aria-label="Edit comment" className="flex flex-col gap-2">
      <TextAreaField
        id={`edit-${moment.id}`}
        label="Edit your comment"
        value={body}
        onChange={(event) => setBody(event.target.value)}
        error={error ?? undefined}
        className="min-h-20"
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function Reactions({ moment }: { moment: Moment }) {
  const { viewer, dispatch } = useMoments();
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(new Set<string>());
  const counts = new Map(reactionCounts(moment, viewer.userId).map((entry) => [entry.emoji, entry]));

  async function toggle(emoji: string) {
    if (!viewer.userId || inFlight.current.has(emoji)) return;
    inFlight.current.add(emoji);
    setError(null);
    const own = { user_id: viewer.userId, emoji };
    if (counts.get(emoji)?.mine) {
      dispatch({ type: "reactionRemove", momentId: moment.id, reaction: own });
      const answer = await removeReaction({ momentId: moment.id, emoji }).catch(() => ({ ok: false as const, error: offline }));
      if (!answer.ok) {
        dispatch({ type: "reactionAdd", momentId: moment.id, reaction: { id: `pending-${emoji}`, ...own } });
        setError(answer.error);
      }
    } else {
      const pending = { id: `pending-${crypto.randomUUID()}`, ...own };
      dispatch({ type: "reactionAdd", momentId: moment.id, reaction: pending });
      const answer = await addReaction({ momentId: moment.id, emoji }).catch(() => ({ ok: false as const, error: offline }));
      if (answer.ok) dispatch({ type: "reactionAdd", momentId: moment.id, reaction: answer.data });
      else if (answer.error !== momentActionMessages.alreadyReacted) {
        dispatch({ type: "reactionRemove", momentId: moment.id, reaction: { id: pending.id } });
        setError(answer.error);
      }
    }
    inFlight.current.delete(emoji);
  }

  if (!viewer.canComment) {
    if (!counts.size) return null;
    return (
      <p className="flex flex-wrap gap-2 text-sm" aria-label="Reactions">
        {[...counts.values()].map((entry) => (
          <span key={entry.emoji} className="rounded-full border border-line px-2 py-0.5">
            {entry.emoji} {entry.count}
          </span>
        ))}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <div role="group" aria-label="Reactions" className="flex flex-wrap gap-1.5">
        {reactionEmoji.map((emoji) => {
          const entry = counts.get(emoji);
          return (
            <button
              key={emoji}
              type="button"
              aria-pressed={entry?.mine ?? false}
              onClick={() => void toggle(emoji)}
              className={`inline-flex min-h-8 min-w-10 items-center justify-center gap-1 rounded-full border px-2 text-sm transition ${entry?.mine ? "border-accent bg-accent/15 font-semibold" : "border-line hover:bg-line/60"}`}
            >
              {emoji}
              {entry ? <span>{entry.count}</span> : null}
            </button>
          );
        })}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One comment: who, when in the media (a button that plays from there), what, reactions, and edit/delete for those allowed. */
export function MomentItem({ moment, highlighted }: { moment: Moment; highlighted: boolean }) {
  const { viewer, dispatch, pick } = useMoments();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const own = viewer.userId === moment.author_id;
  const mayDelete = own || viewer.canModerate;

  async function remove() {
    setDeleting(true);
    setError(null);
    const answer = await deleteMoment(moment.id).catch(() => ({ ok: false as const, error: offline }));
    setDeleting(false);
    if (!answer.ok) return setError(answer.error);
    dispatch({ type: "remove", id: moment.id });
  }

  return (
    <li
      data-moment-id={moment.id}
      aria-current={highlighted ? "true" : undefined}
      className={`flex flex-col gap-2 rounded-xl border px-3 py-3 transition-colors sm:px-4 ${highlighted ? "border-accent bg-accent/10" : "border-transparent"}`}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <Avatar path={moment.author?.avatar_path} name={authorName(moment)} size={24} />
        {moment.author ? (
          <Link href={`/u/${moment.author.username}`} className={`min-w-0 truncate font-medium ${linkClasses}`}>
            <PersonName person={moment.author} />
          </Link>
        ) : (
          <span className="font-medium">Someone</span>
        )}
        {moment.at_seconds !== null ? (
          <button
            type="button"
            onClick={() => pick(moment)}
            className="rounded-md bg-accent px-1.5 py-0.5 font-mono text-accent-ink hover:opacity-90"
          >
            {formatMomentTime(moment.at_seconds)}
          </button>
        ) : (
          <span className="rounded-md border border-line px-1.5 py-0.5 text-xs text-muted">General</span>
        )}
        <time dateTime={moment.created_at} className="whitespace-nowrap text-muted">
          {formatPostDate(moment.created_at)}
          {moment.updated_at !== moment.created_at ? " · edited" : ""}
        </time>
      </div>
      {editing ? (
        <EditMoment moment={moment} onDone={() => setEditing(false)} />
      ) : (
        <p className="whitespace-pre-line [overflow-wrap:anywhere]">{moment.body}</p>
      )}
      {withheldNote(moment) ? <p className="text-sm font-medium text-muted">{withheldNote(moment)}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Reactions moment={moment} />
        {viewer.canComment && !own && !editing ? <ReportButton target={{ momentId: moment.id }} /> : null}
        {!editing && (own || mayDelete) ? (
          <div className="flex flex-wrap gap-1">
            {confirming ? (
              <>
                <Button variant="danger" className="min-h-8 py-1" disabled={deleting} onClick={() => void remove()}>
                  {deleting ? "Deleting…" : "Yes, delete"}
                </Button>
                <Button variant="ghost" className="min-h-8 py-1" disabled={deleting} onClick={() => setConfirming(false)}>
                  Keep it
                </Button>
              </>
            ) : (
              <>
                {own ? (
                  <Button variant="ghost" className="min-h-8 py-1" onClick={() => setEditing(true)}>
                    Edit
                  </Button>
                ) : null}
                <Button variant="ghost" className="min-h-8 py-1 text-danger" onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              </>
            )}
          </div>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </li>
  );
}
