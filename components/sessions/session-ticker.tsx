"use client";

import { useEffect, useRef, useState } from "react";
import { Avatar } from "@/components/avatar";
import { PersonName } from "@/components/people/person-name";
import { formatMomentTime } from "@/lib/moments/time";
import type { Moment } from "@/lib/moments/types";
import { initialTicker, sameShown, type TickerItem, tickerStep, type TickerState } from "@/lib/sessions/ticker";

const lookEveryMs = 250;

export interface SessionTickerProps {
  postId: string | null;
  moments: readonly Moment[];
  /** Comments that arrived while the page was open: news even at the ticker's first look. */
  arrived: ReadonlySet<string>;
  /** The player's position now (seconds), or null when nothing plays. */
  getPosition: () => number | null;
}

/** The playing post's comments, popping up as playback passes their time (and at once when just made). */
export function SessionTicker({ postId, moments, arrived, getPosition }: SessionTickerProps) {
  const [shown, setShown] = useState<TickerItem[]>([]);
  const ticker = useRef<TickerState>(initialTicker);
  const inputs = useRef({ postId, moments, arrived, getPosition });
  useEffect(() => {
    inputs.current = { postId, moments, arrived, getPosition };
  });

  useEffect(() => {
    const look = () => {
      const { postId: post, moments: list, arrived: news, getPosition: position } = inputs.current;
      const next = tickerStep(ticker.current, { postId: post, position: position(), moments: list, arrived: news, now: Date.now() });
      if (!sameShown(ticker.current, next)) setShown(next.shown);
      ticker.current = next;
    };
    look();
    const timer = setInterval(look, lookEveryMs);
    return () => clearInterval(timer);
  }, []);

  return (
    <section aria-labelledby="ticker-heading" className="flex flex-col gap-2">
      <h3 id="ticker-heading" className="sr-only">
        Comments as they happen
      </h3>
      {shown.length === 0 ? (
        <p className="text-sm text-muted">
          {postId ? "Comments pop up here as playback reaches them." : "Comments pop up here once something plays."}
        </p>
      ) : null}
      <ol aria-live="polite" aria-label="Comments at this moment" className="flex flex-col gap-2">
        {shown.map(({ moment }) => (
          <li
            key={moment.id}
            className="flex min-w-0 items-start gap-2 rounded-xl border border-line bg-raised px-3 py-2 text-sm shadow-sm"
            data-ticker-moment={moment.id}
          >
            <Avatar path={moment.author?.avatar_path} name={moment.author?.display_name ?? "?"} size={24} />
            <p className="min-w-0 [overflow-wrap:anywhere]">
              <PersonName person={moment.author} className="font-medium" />{" "}
              <span className="tabular-nums text-muted">at {formatMomentTime(moment.at_seconds ?? 0)}</span>
              <span className="sr-only">:</span> <span className="whitespace-pre-line">{moment.body}</span>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
