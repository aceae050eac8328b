import Link from "next/link";
import { linkClasses } from "@/components/ui/link";
import type { LogEntry, PersonRef } from "@/lib/moderation/page-queries";
import { LocalTime } from "./local-time";

/** Each logged action in a few words: "banned", "removed a comment", … */
const actionWords: Record<string, string> = {
  ban: "banned",
  unban: "unbanned",
  timeout: "timed out",
  timeout_lifted: "ended the timeout of",
  member_removed: "removed",
  post_removed: "removed a post by",
  comment_removed: "removed a comment by",
  role_changed: "changed the role of",
  gate_changed: "changed the room's gate",
  slow_mode_changed: "changed slow mode",
  report_threshold_changed: "changed how many reports hide an item",
  blocked_terms_changed: "changed the blocked words",
  report_actioned: "acted on reports about",
  report_dismissed: "dismissed reports about",
  approved: "approved a held comment by",
  post_hidden: "hid a post by",
  comment_hidden: "hid a comment by",
};

function Name({ person }: { person: PersonRef | null }) {
  if (!person) return null;
  if (!person.username) return <span>someone whose account is gone</span>;
  return (
    <Link href={`/u/${person.username}`} className={`font-medium ${linkClasses}`}>
      {person.displayName ?? person.username}
    </Link>
  );
}

/** Who did what to whom, why and when; newest first, a page at a time. */
export function ModerationLog({ entries, olderHref }: { entries: LogEntry[]; olderHref: string | null }) {
  return (
    <section aria-labelledby="log-heading" className="flex flex-col gap-3">
      <h2 id="log-heading" className="text-lg font-semibold">
        Moderation log
      </h2>
      <p className="text-sm text-muted">Every moderation action in this room. Nobody can change or delete it.</p>
      {entries.length ? (
        <ol className="flex flex-col divide-y divide-line text-sm">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 py-2">
              <p className="[overflow-wrap:anywhere]">
                {entry.actor ? <Name person={entry.actor} /> : <span className="font-medium">Reports</span>}{" "}
                {actionWords[entry.action] ?? entry.action} {entry.target ? <Name person={entry.target} /> : null}
              </p>
              <p className="text-muted [overflow-wrap:anywhere]">
                <LocalTime iso={entry.createdAt} />
                {entry.reason ? ` · ${entry.reason}` : ""}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm">Nothing yet.</p>
      )}
      {olderHref ? (
        <Link href={olderHref} className={`text-sm ${linkClasses}`}>
          Older entries
        </Link>
      ) : null}
    </section>
  );
}
