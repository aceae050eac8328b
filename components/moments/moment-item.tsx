"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import { formatPostDate } from "@/components/posts/format";
import { Button, buttonClasses } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { linkClasses } from "@/components/ui/link";
import { addReaction, deleteMoment, removeReaction, updateMoment } from "@/lib/moments/actions";
import { withheldNote } from "@/lib/moderation/held";
import { momentActionMessages } from "@/lib/moments/errors";
import { isReply, moreRepliesLabel, reactionCounts, repliesShownCollapsed, visibleReplies } from "@/lib/moments/state";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";
import { reactionEmoji } from "@/lib/moments/rules";
import { loadMomentSchemas } from "@/lib/moments/schemas";
import { ReportButton } from "@/components/moderation/report-button";
import { MentionText } from "@/components/mentions/mention-text";
import { useMoments } from "./moments-context";
import { authorName, excerpt } from "./names";
import { lazyComponent } from "@/components/lazy";

// The reply form loads when a person first opens one (it carries the @ field and the reply action).
const ReplyComposer = lazyComponent(() => import("./reply-composer").then((module) => module.ReplyComposer));
// Loaded on the first "Share" (the same chunk as the player's share panel).
const SharePanel = lazyComponent(() => import("./share-panel").then((module) => module.SharePanel));

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

/** Edit, delete (with a confirmation) and report, for those allowed; a comment emptied by its deletion keeps its replies. */
function MomentActions({ moment, editing, onEdit }: { moment: Moment; editing: boolean; onEdit: () => void }) {
  const { viewer, dispatch } = useMoments();
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
    if (answer.data.deletedAt) dispatch({ type: "upsert", moment: { ...moment, body: "", deleted_at: answer.data.deletedAt } });
    else dispatch({ type: "remove", id: moment.id });
  }

  return (
    <>
      {viewer.canComment && !own && !editing ? <ReportButton target={{ momentId: moment.id }} /> : null}
      {!editing && mayDelete ? (
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
                <Button variant="ghost" className="min-h-8 py-1" onClick={onEdit}>
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
      {error ? (
        <p role="alert" className="w-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** Who wrote it and when (the time in the media, a button that plays from there, for a comment on the post). */
function Byline({ moment }: { moment: Moment }) {
  const { pick } = useMoments();
  const reply = isReply(moment);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <Avatar path={moment.author?.avatar_path} name={authorName(moment)} size={reply ? 20 : 24} />
      {moment.author ? (
        <Link href={`/u/${moment.author.username}`} className={`min-w-0 truncate font-medium ${linkClasses}`}>
          <PersonName person={moment.author} />
        </Link>
      ) : (
        <span className="font-medium">Someone</span>
      )}
      {reply ? null : moment.at_seconds !== null ? (
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
  );
}

/** "Share" on a comment or a reply: its /m/<id> link, in a panel under the card. */
function useShareMoment(moment: Moment) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const trigger = (
    <button
      ref={button}
      type="button"
      className={buttonClasses("ghost", "min-h-11 py-1")}
      aria-expanded={open}
      onClick={() => (open ? close() : setOpen(true))}
    >
      Share<span className="sr-only"> this {isReply(moment) ? "reply" : "comment"}</span>
    </button>
  );
  const panel = open ? <SharePanel target={{ kind: "moment", momentId: moment.id }} title={excerpt(moment.body)} onClose={close} /> : null;
  return { trigger, panel };
}

/** A comment's or a reply's own card: byline, words (with @names linked), reactions and actions. */
function MomentCard({ moment, children }: { moment: Moment; children?: React.ReactNode }) {
  const [editing, setEditing] = useState(false);
  const share = useShareMoment(moment);
  return (
    <>
      <Byline moment={moment} />
      {editing ? (
        <EditMoment moment={moment} onDone={() => setEditing(false)} />
      ) : (
        <p className="whitespace-pre-line [overflow-wrap:anywhere]">
          <MentionText text={moment.body} mentions={moment.mentions} />
        </p>
      )}
      {withheldNote(moment) ? <p className="text-sm font-medium text-muted">{withheldNote(moment)}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Reactions moment={moment} />
        <div className="flex flex-wrap items-center gap-1">
          {editing ? null : children}
          {editing ? null : share.trigger}
          <MomentActions moment={moment} editing={editing} onEdit={() => setEditing(true)} />
        </div>
      </div>
      {share.panel}
    </>
  );
}

/** Whether this item is the one a link pointed at (highlighted for a moment, then plain). */
const flashClasses = "ring-2 ring-accent ring-offset-2 ring-offset-raised";

/** One reply under its comment. */
function ReplyItem({ reply }: { reply: Moment }) {
  const { flash } = useMoments();
  return (
    <li
      data-moment-id={reply.id}
      tabIndex={-1}
      aria-label={`Reply by ${authorName(reply)}`}
      className={`flex flex-col gap-2 rounded-xl border-l-2 border-line py-2 pl-3 pr-1 outline-none transition-shadow ${flash === reply.id ? flashClasses : ""}`}
    >
      <MomentCard moment={reply} />
    </li>
  );
}

/**
 * One comment: who, when in the media (a button that plays from there), what, reactions, reply,
 * and edit/delete for those allowed; its replies under it, oldest first, the first three shown
 * until "Show 12 more replies". A deleted comment that still has replies says so, and nothing else.
 */
export function MomentItem({ moment, highlighted }: { moment: Moment; highlighted: boolean }) {
  const { viewer, state, flash, target } = useMoments();
  const replies = state.replies[moment.id] ?? [];
  const [expanded, setExpanded] = useState(() => replies.findIndex((reply) => reply.id === target.commentId) >= repliesShownCollapsed);
  const [replying, setReplying] = useState(false);
  const [draft, setDraft] = useState("");
  const replyButton = useRef<HTMLButtonElement>(null);
  const { shown, more } = visibleReplies(replies, expanded);
  // A link to a reply hidden in the collapsed part opens the thread.
  const targetHidden = target.commentId !== null && replies.slice(repliesShownCollapsed).some((reply) => reply.id === target.commentId);
  if (targetHidden && !expanded) setExpanded(true);

  const closeComposer = () => {
    setReplying(false);
    replyButton.current?.focus();
  };

  return (
    <li
      data-moment-id={moment.id}
      tabIndex={-1}
      aria-current={highlighted ? "true" : undefined}
      className={`flex flex-col gap-2 rounded-xl border px-3 py-3 outline-none transition-[background-color,border-color,box-shadow] sm:px-4 ${highlighted ? "border-accent bg-accent/10" : "border-transparent"} ${flash === moment.id ? flashClasses : ""}`}
    >
      {moment.deleted_at ? (
        <p className="text-sm italic text-muted">Comment deleted</p>
      ) : (
        <MomentCard moment={moment}>
          {viewer.canComment ? (
            <button
              ref={replyButton}
              type="button"
              className={buttonClasses("ghost", "min-h-8 py-1")}
              aria-expanded={replying}
              onClick={() => (replying ? closeComposer() : setReplying(true))}
            >
              Reply
            </button>
          ) : null}
        </MomentCard>
      )}
      {replying && !moment.deleted_at ? (
        <ReplyComposer
          parent={moment}
          draft={draft}
          onDraft={setDraft}
          onClose={closeComposer}
          onPosted={() => {
            setExpanded(true);
            closeComposer();
          }}
        />
      ) : null}
      {replies.length ? (
        <div className="flex flex-col gap-1 pl-3 sm:pl-6">
          <ol aria-label={`Replies to ${moment.deleted_at ? "a deleted comment" : authorName(moment)}`} className="flex flex-col gap-1">
            {shown.map((reply) => (
              <ReplyItem key={reply.id} reply={reply} />
            ))}
          </ol>
          {more ? (
            <div>
              <Button variant="ghost" className="min-h-8 py-1 text-sm" onClick={() => setExpanded(true)}>
                {moreRepliesLabel(more)}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
