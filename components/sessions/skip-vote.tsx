"use client";

import { Button } from "@/components/ui/button";
import { skipTallyOf, tallyText, turnActions } from "@/lib/sessions/turns";
import { useListeningSession } from "@/lib/sessions/use-listening-session";
import { useTurnAction } from "./waitlist-panel";

/**
 * "Vote to skip" for the people listening along, with the live tally from the session's row ("1 of
 * 2 to skip"). Postgres decides who may vote (following, here when the vote started) and says why not.
 */
export function SkipVote({ share }: { share: number }) {
  const { session, self, isHost, following } = useListeningSession();
  const { busy, error, run } = useTurnAction();
  if (!session || !session.post_id || isHost) return null;
  const tally = skipTallyOf(session, self.user_id);
  const sessionId = session.id;
  return (
    <div className="flex flex-col items-start gap-1" data-skip-vote="">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          disabled={busy || tally.voted || !following}
          onClick={() => void run((data) => turnActions.voteToSkip(data, sessionId, tally.track))}
        >
          {tally.voted ? "You voted to skip" : "Vote to skip"}
        </Button>
        <p className="text-sm text-muted" aria-live="polite" data-skip-tally="">
          {tallyText(tally, share)}
        </p>
      </div>
      {!following ? <p className="text-sm text-muted">Follow the session to vote on what plays.</p> : null}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
