import { Avatar } from "@/components/avatar";
import { personName } from "@/lib/people/names";
import type { Listener } from "@/lib/sessions/types";

/** The name a listener goes by: the one rule for people's names (lib/people/names.ts) — their display name. */
export const listenerName = (listener: Pick<Listener, "ens_name" | "display_name" | "username">): string => personName(listener).name;

/** The host first, then the page's own person, then everyone else by name. */
export function orderListeners(listeners: readonly Listener[]): Listener[] {
  return [...listeners].sort(
    (a, b) =>
      Number(b.isHost) - Number(a.isHost) ||
      Number(b.isSelf) - Number(a.isSelf) ||
      listenerName(a).localeCompare(listenerName(b)) ||
      a.user_id.localeCompare(b.user_id),
  );
}

/**
 * Everyone with the session open (from presence): avatar, display name (the ENS name under it), the host
 * marked, and who is listening on their own. On a phone: a wrapping row of compact chips. With
 * `onMakeHost` (the host, moderators and the owner), each other person can be given the host's place.
 */
export function ListenersList({ listeners, onMakeHost }: { listeners: readonly Listener[]; onMakeHost?: (userId: string) => void }) {
  const people = orderListeners(listeners);
  return (
    <section aria-labelledby="listeners-heading" className="flex flex-col gap-3 rounded-2xl border border-line bg-raised p-4 sm:p-5">
      <h2 id="listeners-heading" className="text-base font-semibold">
        Listening <span className="font-normal text-muted">({people.length})</span>
      </h2>
      {people.length === 0 ? (
        <p className="text-sm text-muted">Nobody here yet.</p>
      ) : (
        <ul aria-label="People listening" className="flex flex-wrap gap-2 sm:flex-col">
          {people.map((listener) => (
            <li
              key={listener.user_id}
              className="flex min-w-0 max-w-full items-center gap-2 rounded-full border border-line py-1 pl-1 pr-3 text-sm sm:rounded-none sm:border-0 sm:p-0"
              data-listener={listener.username}
            >
              <ListenerAvatar listener={listener} />
              <PersonLabel listener={listener} />
              {listener.isHost ? (
                <span className="shrink-0 rounded-full bg-accent px-2 py-0.5 text-xs font-semibold text-accent-ink">Host</span>
              ) : null}
              {!listener.isHost && !listener.following ? <span className="shrink-0 text-xs text-muted">on their own</span> : null}
              {onMakeHost && !listener.isHost ? (
                <button
                  type="button"
                  onClick={() => onMakeHost(listener.user_id)}
                  className="ml-auto shrink-0 rounded-md px-2 py-1 text-xs font-medium text-accent underline-offset-2 hover:underline"
                  aria-label={`Make ${listenerName(listener)} the host`}
                >
                  Make host
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Their uploaded avatar; else their ENS avatar; else initials. */
function ListenerAvatar({ listener }: { listener: Listener }) {
  if (!listener.avatar_path && listener.ens_avatar) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- ENS avatars come from any host; no optimiser
      <img
        src={listener.ens_avatar}
        alt=""
        width={24}
        height={24}
        className="h-6 w-6 shrink-0 rounded-full border border-line object-cover"
      />
    );
  }
  return <Avatar path={listener.avatar_path} name={listenerName(listener)} size={24} />;
}

/** Their display name, "(you)" for the page's own person, and their ENS name as a quieter second line. */
function PersonLabel({ listener }: { listener: Listener }) {
  const { name, secondary } = personName(listener);
  return (
    <span className="flex min-w-0 flex-col leading-tight" title={`@${listener.username}`}>
      <span className="truncate font-medium">
        {name}
        {listener.isSelf ? <span className="font-normal text-muted"> (you)</span> : null}
      </span>
      {secondary ? (
        <span className="truncate text-xs text-muted" data-ens-name="">
          {secondary}
        </span>
      ) : null}
    </span>
  );
}
