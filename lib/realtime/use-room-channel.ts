"use client";

import { startTransition, useEffect, useRef, useState } from "react";
import { loadLiveClient, loadSupabaseData } from "@/lib/supabase/browser-clients";
import type { RoomChannelHandlers, RoomChannelStatus } from "./room-channel";
import type { RoomConnection, RoomConnectionOptions, RoomSubscriber } from "./room-connection";
import { HereRows, inTurn, keepMarked, leaveHere, markHere, presentIds } from "./here-rows";
import { type HereNow, type NowPlaying, hereNowOf } from "./presence";

/** The room's access epoch as the database has it now (its channels' topics carry it: ./access-epoch.ts). */
export async function readRoomEpoch(roomId: string): Promise<number | null> {
  const { data } = await (await loadSupabaseData()).from("rooms").select("access_epoch").eq("id", roomId).maybeSingle();
  return data?.access_epoch ?? null;
}

/** A gated room's membership re-check (its code loads only on such pages, with the data client). */
async function freshnessKeeper(roomId: string): Promise<RoomConnectionOptions["keepFresh"]> {
  const { recheckFreshness, openPageRecheckEveryMs } = await import("@/lib/rooms/membership-freshness");
  return { recheck: async () => recheckFreshness(await loadSupabaseData(), roomId), everyMs: openPageRecheckEveryMs };
}

/**
 * Runs `use` with the page's connection to the room once it exists: the connection's code loads
 * with the live client, after first paint.
 */
function useConnection(
  roomId: string | null,
  options: RoomConnectionOptions,
  subscriber: RoomSubscriber,
  use?: (connection: RoomConnection) => void,
): void {
  const latest = useRef({ subscriber, use });
  useEffect(() => {
    latest.current = { subscriber, use };
  });
  const { userId, gated, presenceKey } = options;
  useEffect(() => {
    if (!roomId) return;
    let cancelled = false;
    let leave = () => {};
    // The live client loads the runtime's chunk: importing it again here requests nothing.
    void loadLiveClient().then(async (live) => {
      const { roomConnection } = await import("./live-runtime");
      if (cancelled) return;
      const keepFresh = gated && userId ? await freshnessKeeper(roomId) : undefined;
      if (cancelled) return;
      const connection = roomConnection(live, roomId, { userId, gated, presenceKey, keepFresh, readEpoch: readRoomEpoch });
      // What the channel brings updates the page as transitions: React renders them in slices, so
      // a burst of changes or presence does not hold the page while it renders.
      const proxy: Required<RoomSubscriber> = {
        onChange: (change) => startTransition(() => latest.current.subscriber.onChange?.(change)),
        onMembership: (change) => startTransition(() => latest.current.subscriber.onMembership?.(change)),
        onStanding: (change) => latest.current.subscriber.onStanding?.(change),
        onStatus: (status, detail) => startTransition(() => latest.current.subscriber.onStatus?.(status, detail)),
        onResync: () => latest.current.subscriber.onResync?.(),
        onPresence: (state) => startTransition(() => latest.current.subscriber.onPresence?.(state)),
        onMembershipEnded: (message) => startTransition(() => latest.current.subscriber.onMembershipEnded?.(message)),
      };
      leave = connection.subscribe(proxy);
      startTransition(() => latest.current.use?.(connection));
    });
    return () => {
      cancelled = true;
      leave();
    };
  }, [roomId, userId, gated, presenceKey]);
}

/**
 * Keeps the page joined to the room's live channel while it is mounted (`roomId` null: not joined).
 * Handlers may change on every render; every component of the page listening to the same room
 * shares one channel. `onResync` runs whenever the channel is live again after a gap: fetch what
 * changed since the newest change seen, through REST, and merge by id.
 */
export function useRoomChannel(
  roomId: string | null,
  handlers: RoomChannelHandlers & Pick<RoomSubscriber, "onMembershipEnded">,
  presenceKey?: string,
  options: Omit<RoomConnectionOptions, "presenceKey"> = {},
): void {
  useConnection(roomId, { ...options, presenceKey }, handlers);
}

/** The page's own person, as they appear in "here now" (members only; null shares nothing). */
export type PresenceSelf = { user_id: string };

/**
 * Who is in the room now and, for a member, marking their own page as here with what it plays.
 * Everything shown comes from rows the database wrote for each person (./here-rows.ts); the
 * channel's presence only says when to read them again and who is still connected. Visitors see
 * the list but are not in it.
 */
export function useHereNow(
  roomId: string | null,
  self: PresenceSelf | null,
  playing: NowPlaying | null,
  options: Omit<RoomConnectionOptions, "presenceKey"> = {},
) {
  const [people, setPeople] = useState<HereNow[]>([]);
  const [status, setStatus] = useState<{ status: RoomChannelStatus; detail?: string }>({ status: "joining" });
  const [ended, setEnded] = useState<string | null>(null);
  const [connection, setConnection] = useState<RoomConnection | null>(null);
  const [rows, setRows] = useState<HereRows | null>(null);
  const selfId = self?.user_id ?? null;
  const [tabId] = useState(() => crypto.randomUUID());
  // The tab's row is written one request at a time, so the last mark (or leaving) is what it keeps.
  const [ownRow] = useState(inTurn);

  useEffect(() => {
    if (!roomId) return;
    let current: HereRows | null = null;
    let cancelled = false;
    void loadSupabaseData().then((data) => {
      if (cancelled) return;
      current = HereRows.forRoom(data, roomId, (found) => startTransition(() => setPeople(hereNowOf(found, selfId))));
      setRows(current);
    });
    return () => {
      cancelled = true;
      current?.stop();
    };
  }, [roomId, selfId]);

  useConnection(
    roomId,
    { ...options, presenceKey: selfId ?? undefined },
    {
      onPresence: (state) => rows?.present(presentIds(state)),
      onStatus: (next, detail) => setStatus({ status: next, detail }),
      onMembershipEnded: (message) => setEnded(message),
    },
    setConnection,
  );
  // Presence heard before the rows' reader was ready: hand it over now.
  useEffect(() => {
    const state = connection?.presenceState();
    if (rows && state) rows.present(presentIds(state));
  }, [rows, connection]);

  // A member's page: its row first (so the others find it when prompted), then the prompt; again every 30 s.
  const playingPostId = playing?.post_id ?? null;
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);
  useEffect(() => {
    if (!connection || !roomId || !selfId) return;
    return keepMarked(
      () => ownRow(async () => markHere(await loadSupabaseData(), roomId, tabId, { playingPostId })),
      () => connection.setPresence({ user_id: selfId, at: Date.now() }),
      () => rowsRef.current?.prompt(),
    );
  }, [connection, roomId, selfId, tabId, playingPostId, ownRow]);
  // Leaving (this page goes, or the room or person changes): stop sharing, and the row goes too.
  const connectionRef = useRef(connection);
  useEffect(() => {
    connectionRef.current = connection;
  }, [connection]);
  useEffect(
    () => () => {
      connectionRef.current?.setPresence(null);
      if (roomId && selfId) void ownRow(async () => leaveHere(await loadSupabaseData(), roomId, tabId));
    },
    [roomId, selfId, tabId, ownRow],
  );
  return { people, status: status.status, detail: status.detail, ended };
}
