import Link from "next/link";
import { formatMomentTime } from "@/lib/moments/time";
import { type MarkedPart, markedParts } from "@/lib/search/highlight";
import type { FoundItem } from "@/lib/search/queries";

/**
 * Posts and comments a search found, best match first, the matched words emphasised. A post leads
 * to its page; a comment to its own address (its post, at its time, picked out). Server-rendered:
 * it needs no script.
 */
export function FoundItems({ items, search }: { items: FoundItem[]; search: string }) {
  if (items.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-5 py-6 text-sm text-muted">No posts or comments match “{search}”.</p>
    );
  }
  return (
    <ol className="flex flex-col gap-3" data-testid="found-items">
      {items.map((item) => (
        <li
          key={`${item.kind}-${item.id}`}
          className="relative flex min-w-0 flex-col gap-1 rounded-2xl border border-line bg-raised p-4 shadow-sm hover:border-accent/50"
        >
          {item.kind === "comment" ? (
            <>
              <p className="text-sm text-muted">
                Comment{item.atSeconds !== null ? ` at ${formatMomentTime(item.atSeconds)}` : ""} on{" "}
                <span className="text-ink">
                  <Marked parts={markedParts(item.title)} />
                </span>
              </p>
              <Link
                href={item.href}
                className="line-clamp-3 [overflow-wrap:anywhere] after:absolute after:inset-0 hover:text-accent focus-visible:underline"
              >
                <Marked parts={markedParts(item.snippet)} />
              </Link>
            </>
          ) : (
            <>
              <p className="text-sm text-muted">Post</p>
              <Link
                href={item.href}
                className="font-semibold [overflow-wrap:anywhere] after:absolute after:inset-0 hover:text-accent focus-visible:underline"
              >
                <Marked parts={markedParts(item.title)} />
              </Link>
              {item.snippet ? (
                <p className="line-clamp-2 text-sm [overflow-wrap:anywhere]">
                  <Marked parts={markedParts(item.snippet)} />
                </p>
              ) : null}
            </>
          )}
          <p className="text-sm text-muted">
            in {item.roomName}
            {item.author ? ` · by ${item.author}` : ""}
          </p>
        </li>
      ))}
    </ol>
  );
}

function Marked({ parts }: { parts: MarkedPart[] }) {
  return parts.map((part, i) =>
    part.match ? (
      <mark key={i} className="rounded-sm bg-accent/15 px-0.5 font-semibold text-inherit">
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}
