import { linkClasses } from "@/components/ui/link";
import type { GateDetails } from "@/lib/rooms/gate-details";

/**
 * Who may join a gated room, in words: the requirement, the token by its name and symbol on its
 * chain (the contract only as a quiet second line), and where to find it — the token's page on the
 * chain's explorer, or, on a chain without one, who to ask.
 */
export function GateRequirement({ details }: { details: GateDetails }) {
  return (
    <div className="flex flex-col gap-1" data-gate-requirement="">
      <p>{details.requirement}</p>
      <p className="text-sm text-muted [overflow-wrap:anywhere]">
        {details.token ? <span className="font-medium text-ink">{details.token}</span> : null}
        {details.token ? " · " : null}
        {details.standard} on {details.chainName} ·{" "}
        <span className="font-mono" title={details.address}>
          {details.shortAddress}
        </span>
      </p>
      {details.explorer ? (
        <p className="text-sm">
          <a href={details.explorer.url} target="_blank" rel="noopener noreferrer" className={linkClasses}>
            See the token on {details.explorer.name}
          </a>{" "}
          <span className="text-muted">— who holds it, and where it trades.</span>
        </p>
      ) : (
        <p className="text-sm text-muted">{details.chainName} has no public explorer — ask the room&apos;s owner how to get a pass.</p>
      )}
    </div>
  );
}
