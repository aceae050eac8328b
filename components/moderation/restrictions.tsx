"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { linkClasses } from "@/components/ui/link";
import { liftTimeout, unbanMember } from "@/lib/moderation/actions";
import type { ModeratedPerson } from "@/lib/moderation/queries";
import { LocalTime } from "./local-time";
import { useAct } from "./use-act";

function Entry({ roomId, entry, kind }: { roomId: string; entry: ModeratedPerson; kind: "ban" | "timeout" }) {
  const act = useAct();
  const name = entry.displayName || "Someone";
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col text-sm">
        <p className="font-medium">
          {entry.username ? (
            <Link href={`/u/${entry.username}`} className={linkClasses}>
              {name}
            </Link>
          ) : (
            name
          )}
        </p>
        <p className="text-muted">
          {entry.expiresAt ? (
            <>
              Until <LocalTime iso={entry.expiresAt} />
            </>
          ) : (
            "For good"
          )}
          {entry.byUsername ? ` · by @${entry.byUsername}` : ""}
          {entry.reason ? <span className="[overflow-wrap:anywhere]"> · {entry.reason}</span> : null}
        </p>
      </div>
      <div className="flex flex-col items-start gap-1 sm:items-end">
        <Button
          variant="secondary"
          disabled={act.pending}
          aria-label={kind === "ban" ? `Unban ${name}` : `End ${name}'s timeout`}
          onClick={() => act.run(() => (kind === "ban" ? unbanMember(roomId, entry.userId) : liftTimeout(roomId, entry.userId)))}
        >
          {kind === "ban" ? "Unban" : "End timeout"}
        </Button>
        {act.error ? <Alert tone="error">{act.error}</Alert> : null}
      </div>
    </li>
  );
}

/** The bans and timeouts in force, each with the one step that ends it. */
export function Restrictions({ roomId, bans, timeouts }: { roomId: string; bans: ModeratedPerson[]; timeouts: ModeratedPerson[] }) {
  return (
    <section aria-labelledby="restrictions-heading" className="flex flex-col gap-4">
      <h2 id="restrictions-heading" className="text-lg font-semibold">
        Bans and timeouts
      </h2>
      <p className="text-sm text-muted">Time out or ban someone from the members list in the room&apos;s settings, or from a report.</p>
      <div className="flex flex-col gap-1">
        <h3 className="font-medium">Timed out</h3>
        {timeouts.length ? (
          <ul className="flex flex-col divide-y divide-line">
            {timeouts.map((entry) => (
              <Entry key={entry.userId} roomId={roomId} entry={entry} kind="timeout" />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">Nobody is timed out.</p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <h3 className="font-medium">Banned</h3>
        {bans.length ? (
          <ul className="flex flex-col divide-y divide-line">
            {bans.map((entry) => (
              <Entry key={entry.userId} roomId={roomId} entry={entry} kind="ban" />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">Nobody is banned.</p>
        )}
      </div>
    </section>
  );
}
