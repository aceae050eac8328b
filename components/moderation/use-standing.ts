"use client";

import { useCallback, useEffect, useState } from "react";
import { moderationMessages, untilWords } from "@/lib/moderation/errors";
import { fetchStanding } from "@/lib/moderation/rpc";
import { namesPerson } from "@/lib/realtime/room-channel";
import { useRoomChannel } from "@/lib/realtime/use-room-channel";
import { type RoomStanding, afterComment, isBanned, isTimedOut, slowModeWaitMs } from "@/lib/moderation/standing";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";

/** How often an open composer asks again whether its person was timed out (while the tab is shown), in case the channel's word was missed. */
const recheckMs = 15_000;

export interface ComposerStanding {
  /** What the composer says instead of sending (the timeout, the ban) or beside its button (slow mode); null: nothing. */
  notice: string | null;
  /** Timed out or banned: the whole form is off. */
  silenced: boolean;
  /** Slow mode's wait is not over: the send button is off. */
  waiting: boolean;
  /** Ask the database again (after a refusal, on focus). */
  refresh: () => void;
  /** The person's own comment just went: slow mode's countdown starts now. */
  posted: () => void;
}

/**
 * The signed-in person's standing in the room for a comment form: read from `my_room_standing` when
 * the form appears, as soon as the room's channel says the person's standing changed (a timeout given
 * or lifted: event "standing", naming `userId`), when the tab or the connection comes back, every 15 s
 * while it is shown and online, and after any refusal, so a timeout a moderator gives while the page is
 * open turns the form off at once, without a reload. Times are said
 * in the reader's own zone; slow mode counts down each second.
 */
export function useComposerStanding(roomId: string | null, userId: string | null): ComposerStanding {
  const [standing, setStanding] = useState<RoomStanding | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const refresh = useCallback(() => {
    if (!roomId) return;
    void loadSupabaseData()
      .then((client) => fetchStanding(client, roomId))
      .then((next) => {
        if (next) setStanding(next);
        setNow(Date.now());
      })
      .catch(() => undefined);
  }, [roomId]);

  // The room's channel names whose standing changed (ids only): this person's form asks for its own.
  useRoomChannel(
    roomId && userId ? roomId : null,
    {
      onStanding: (change) => {
        if (namesPerson(change, userId)) refresh();
      },
    },
    undefined,
    { userId },
  );

  useEffect(() => {
    refresh();
    // Not while the tab is hidden or the browser is offline (it asks again when back).
    const recheck = () => {
      if (document.visibilityState === "visible" && navigator.onLine) refresh();
    };
    const timer = setInterval(recheck, recheckMs);
    document.addEventListener("visibilitychange", recheck);
    window.addEventListener("focus", recheck);
    window.addEventListener("online", recheck);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", recheck);
      window.removeEventListener("focus", recheck);
      window.removeEventListener("online", recheck);
    };
  }, [refresh]);

  const timedOut = standing !== null && isTimedOut(standing, now);
  const banned = standing !== null && isBanned(standing, now);
  const wait = standing ? slowModeWaitMs(standing, now) : 0;
  const timeoutEnd = timedOut ? standing.timedOutUntil : null;

  // Tick each second while something here ends soon: slow mode's countdown, a timeout running out.
  const ticking = wait > 0 || (timeoutEnd !== null && Date.parse(timeoutEnd) - now < 60 * 60 * 1000);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  const posted = useCallback(() => {
    const at = Date.now();
    setStanding((current) => (current ? afterComment(current, at) : current));
    setNow(at);
  }, []);

  const locale = typeof navigator === "undefined" ? undefined : navigator.language;
  const notice = banned
    ? moderationMessages.bannedForGood
    : timeoutEnd
      ? moderationMessages.timedOut(untilWords(timeoutEnd, { now, locale }))
      : wait > 0
        ? `Slow mode: you can comment again in ${Math.ceil(wait / 1000)} s`
        : null;
  return { notice, silenced: banned || timedOut, waiting: wait > 0, refresh, posted };
}
