import Link from "next/link";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import { formatActivity } from "@/components/posts/format";
import { personName } from "@/lib/people/names";
import type { NotificationItem } from "@/lib/notifications/types";
import { describeNotification } from "@/lib/notifications/wording";

/** A notification that names no person (a role, a membership, a moderator's action): the room's initial instead of a face. */
function RoomMark({ name }: { name: string | null | undefined }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg border border-line bg-raised text-sm font-semibold text-muted"
    >
      {Array.from(name?.trim() ?? "")[0]?.toUpperCase() ?? "#"}
    </span>
  );
}

/** One notification in the list: the whole row opens what it is about; unread ones stand out. */
export function NotificationEntry({
  item,
  now,
  arrived,
  onOpen,
}: {
  item: NotificationItem;
  now: number;
  arrived: boolean;
  onOpen: (item: NotificationItem) => void;
}) {
  const words = describeNotification(item);
  const unread = item.readAt === null;
  const body = (
    <>
      {words.actor ? (
        <Avatar path={item.actor?.avatar_path} name={personName(words.actor).name} size={36} />
      ) : (
        <RoomMark name={item.room?.name} />
      )}
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className={`[overflow-wrap:anywhere] ${unread ? "font-medium" : "text-ink/90"}`}>
          {unread ? <span className="sr-only">Unread: </span> : null}
          {words.actor ? (
            <>
              <PersonName person={words.actor} className="font-semibold" /> {words.rest}
            </>
          ) : (
            words.rest
          )}
        </span>
        {words.context ? <span className="truncate text-sm text-muted">{words.context}</span> : null}
        {words.excerpt ? (
          <span className="line-clamp-2 border-l-2 border-line pl-2 text-sm [overflow-wrap:anywhere]">{words.excerpt}</span>
        ) : null}
        {words.note ? <span className="text-sm text-muted">{words.note}</span> : null}
        <time dateTime={item.createdAt} className="text-xs text-muted">
          {formatActivity(item.createdAt, now)}
        </time>
      </span>
      {unread ? <span aria-hidden="true" className="mt-2 h-2.5 w-2.5 shrink-0 rounded-full bg-accent" /> : null}
    </>
  );
  const rowClasses = `flex gap-3 rounded-lg px-3 py-3 transition-colors duration-1000 ${
    arrived ? "bg-accent/15" : unread ? "bg-accent/5" : ""
  }`;
  return (
    <li data-unread={unread || undefined}>
      {words.href ? (
        <Link href={words.href} onClick={() => onOpen(item)} className={`${rowClasses} hover:bg-line/60`}>
          {body}
        </Link>
      ) : (
        <div className={rowClasses}>{body}</div>
      )}
    </li>
  );
}
