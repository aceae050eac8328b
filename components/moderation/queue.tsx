"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { approveHeldComment, dismissItemReports, removeReportedItem } from "@/lib/moderation/report-actions";
import type { PersonRef } from "@/lib/moderation/page-queries";
import { type QueueItem, reportCategoryLabels } from "@/lib/moderation/reports";
import { formatMomentTime } from "@/lib/moments/time";
import { LocalTime } from "./local-time";
import { MemberModeration } from "./member-moderation";
import { useAct } from "./use-act";

function Who({ person }: { person: PersonRef | null }) {
  if (!person?.username) return <span>someone whose account is gone</span>;
  return (
    <Link href={`/u/${person.username}`} className={`font-medium ${linkClasses}`}>
      {person.displayName ?? person.username}
    </Link>
  );
}

function QueueEntry({ item, roomId, slug, viewerId }: { item: QueueItem; roomId: string; slug: string; viewerId: string }) {
  const act = useAct();
  const target = item.kind === "post" ? { postId: item.postId } : { momentId: item.momentId ?? "" };
  const what = item.kind === "post" ? "post" : "comment";
  const held = item.heldAt !== null;
  const status = held ? "Held for its words" : item.hiddenAt ? "Hidden until reviewed" : "Still shown";

  return (
    <li
      className="flex flex-col gap-3 py-4"
      data-queue-item={item.itemId}
      aria-label={`Reported ${what} by ${item.author.displayName ?? "someone"}`}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted">
        <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium">{item.kind === "post" ? "Post" : "Comment"}</span>
        <span className="text-xs font-medium text-ink">{status}</span>
        <span>
          by <Who person={item.author} />, <LocalTime iso={item.createdAt} />
        </span>
      </div>
      <div className="flex flex-col gap-1">
        {item.kind === "comment" ? (
          <p className="text-sm text-muted">
            On{" "}
            <Link href={`/r/${slug}/p/${item.postId}`} className={linkClasses}>
              {item.postTitle}
            </Link>
            {item.atSeconds !== null ? ` at ${formatMomentTime(item.atSeconds)}` : ""}
          </p>
        ) : (
          <Link href={`/r/${slug}/p/${item.postId}`} className={`font-medium ${linkClasses}`}>
            {item.postTitle}
          </Link>
        )}
        {item.body ? (
          <p className="line-clamp-4 whitespace-pre-line rounded-lg bg-surface px-3 py-2 [overflow-wrap:anywhere]">{item.body}</p>
        ) : null}
      </div>
      {item.reportCount ? (
        <div className="flex flex-col gap-1 text-sm">
          <p>
            {item.reportCount === 1 ? "Reported by 1 person" : `Reported by ${item.reportCount} people`}:{" "}
            {item.categories.map((category) => reportCategoryLabels[category]).join(", ")}
          </p>
          <ul className="flex flex-col gap-1 text-muted">
            {item.reports
              .filter((report) => report.note)
              .map((report) => (
                <li key={report.id} className="[overflow-wrap:anywhere]">
                  “{report.note}” — {report.reporter.displayName ?? "someone"}
                </li>
              ))}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap items-start gap-2">
        <Button
          variant="danger"
          disabled={act.pending}
          aria-label={`Remove this ${what}`}
          onClick={() => act.run(() => removeReportedItem({ ...target, reason: "", roomId }))}
        >
          Remove
        </Button>
        {held ? (
          <Button
            variant="secondary"
            disabled={act.pending}
            aria-label="Approve this comment"
            onClick={() => act.run(() => approveHeldComment({ momentId: item.momentId ?? "", reason: "", roomId }))}
          >
            Approve
          </Button>
        ) : null}
        {item.reportCount ? (
          <Button
            variant="secondary"
            disabled={act.pending}
            aria-label={`Dismiss the reports of this ${what}`}
            onClick={() => act.run(() => dismissItemReports({ ...target, reason: "", roomId }))}
          >
            Dismiss
          </Button>
        ) : null}
        {item.author.id && item.author.id !== viewerId ? (
          <MemberModeration
            roomId={roomId}
            userId={item.author.id}
            name={item.author.displayName ?? "the author"}
            label="Time out or ban the author"
          />
        ) : null}
      </div>
      {act.error ? <Alert tone="error">{act.error}</Alert> : null}
    </li>
  );
}

/** Reported and held posts and comments, newest first, each with its one-step actions. */
export function ModerationQueue({ items, roomId, slug, viewerId }: { items: QueueItem[]; roomId: string; slug: string; viewerId: string }) {
  return (
    <section aria-labelledby="queue-heading" className="flex flex-col gap-2">
      <h2 id="queue-heading" className="text-lg font-semibold">
        Reports and held comments
      </h2>
      {items.length ? (
        <ul className="flex flex-col divide-y divide-line">
          {items.map((item) => (
            <QueueEntry key={item.itemId} item={item} roomId={roomId} slug={slug} viewerId={viewerId} />
          ))}
        </ul>
      ) : (
        <p className="text-muted">Nothing to review. Reported posts and comments, and comments held for their words, show up here.</p>
      )}
    </section>
  );
}
