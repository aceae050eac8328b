"use client";

import { useEffect, useState } from "react";
import { loadLiveClient, loadSupabaseData } from "@/lib/supabase/browser-clients";
import { epochMovedPast, heardEpoch, knownEpoch } from "@/lib/realtime/access-epoch";
import { authorizeLive } from "@/lib/realtime/live-auth";
import { readRoomEpoch } from "@/lib/realtime/use-room-channel";
import { buttonClasses } from "@/components/ui/button";
import { sessionTopic } from "@/lib/sessions/types";

/** How many people the session's presence holds (each person once, whatever their tabs). */
export function listenerCount(state: Record<string, unknown[]>): number {
  const people = new Set<string>();
  for (const [key, metas] of Object.entries(state)) {
    for (const meta of metas) {
      const id =
        meta && typeof meta === "object" && typeof (meta as { user_id?: unknown }).user_id === "string"
          ? (meta as { user_id: string }).user_id
          : key;
      people.add(id);
    }
  }
  return people.size;
}

export const listeningText = (count: number | null) =>
  count === null ? null : count === 0 ? "nobody listening yet" : count === 1 ? "1 listening" : `${count} listening`;

/** While nobody is listening, the banner asks the database again this often (a session nobody follows ends after 2 minutes). */
const emptyRecheckMs = 45_000;

/** Whether the room still has a live session (public.live_sessions ends one nobody follows first); null when unknown. */
async function stillLive(roomId: string): Promise<boolean | null> {
  const data = await loadSupabaseData().catch(() => null);
  if (!data) return null;
  const { data: rows, error } = await data.rpc("live_sessions", { room_ids: [roomId] });
  return error ? null : (rows ?? []).length > 0;
}

/**
 * "Listening together now — N listening — Join the session", for the room's members while a session is on. N
 * comes from the session channel's presence (read, never shared: this page is not listening). The
 * banner goes when the session ends: the database broadcasts the ended row, and while nobody is
 * listening the banner asks again (the database ends a session nobody follows), so a room everyone
 * left stops announcing it.
 */
export function SessionBanner({ roomId, slug }: { roomId: string; slug: string }) {
  const [count, setCount] = useState<number | null>(null);
  const [ended, setEnded] = useState(false);
  // The session channel's topic moves on when who may read the room narrows (lib/realtime/access-epoch.ts).
  const [epoch, setEpoch] = useState(() => knownEpoch(roomId));
  useEffect(() => {
    let leave = () => {};
    let live = true;
    const moveOn = (moved: boolean) => live && moved && setEpoch(knownEpoch(roomId));
    void loadLiveClient().then(async (client) => {
      await authorizeLive(client);
      if (!live) return;
      const channel = client.channel(sessionTopic(roomId, epoch), { config: { private: true, presence: { key: "", enabled: true } } });
      channel.on("presence", { event: "sync" }, () => setCount(listenerCount(channel.presenceState() as Record<string, unknown[]>)));
      channel.on("broadcast", { event: "session" }, ({ payload }) => {
        if (live && (payload as { ended_at?: unknown }).ended_at) setEnded(true);
      });
      channel.on("broadcast", { event: "access" }, ({ payload }) =>
        moveOn(heardEpoch(roomId, (payload as { epoch?: unknown }).epoch, epoch)),
      );
      channel.subscribe((status) => {
        if (status === "CHANNEL_ERROR") void epochMovedPast(roomId, epoch, readRoomEpoch).then(moveOn);
      });
      leave = () => void client.removeChannel(channel);
    });
    return () => {
      live = false;
      leave();
    };
  }, [roomId, epoch]);
  useEffect(() => {
    if (count !== 0 || ended) return;
    let live = true;
    const check = () => void stillLive(roomId).then((on) => live && on === false && setEnded(true));
    const timer = setInterval(check, emptyRecheckMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [roomId, count, ended]);
  const listening = listeningText(count);
  if (ended) {
    return (
      <p className="text-sm text-muted" data-session-ended="">
        The listening session has ended.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="flex items-center gap-2 font-medium">
        <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full bg-success" />
        <span>
          Listening together now
          {listening ? (
            <span className="font-normal text-muted" data-listening-count={count}>
              {" "}
              — {listening}
            </span>
          ) : null}
        </span>
      </p>
      {/* A full page load: the session page joins this same channel, and must not find this one closing. */}
      <a href={`/r/${slug}/listen`} className={buttonClasses("primary")}>
        Join the session
      </a>
    </div>
  );
}
