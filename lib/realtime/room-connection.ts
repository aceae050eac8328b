import type { RealtimeChannel } from "@supabase/realtime-js";
import type { Freshness } from "@/lib/rooms/membership-freshness";
import type { LiveClient } from "@/lib/supabase/live-client";
import { authorizeLive } from "@/lib/realtime/live-auth";
import { epochMovedPast, heardEpoch, knownEpoch } from "./access-epoch";
import { channelTurn, MissedChanges } from "./channel-status";
import {
  type RoomChannelHandlers,
  type RoomChannelStatus,
  type RoomRowChange,
  type MembershipChange,
  type StandingChange,
  endsMembershipOf,
  isRoomRowChange,
  roomTables,
  roomTopic,
} from "./room-channel";
import { deliver, isMembershipChange, isStandingChange } from "./live-updates";
import type { PresenceMeta } from "./presence";
import { membershipEndedMessage, takeOwnLeave } from "./room-messages";
import { probeSocketAfterOnline } from "./socket-probe";

/**
 * One page's connection to a room's live channel, shared by everything on the page that listens to
 * the room (the feed, the moments list, "here now", the status line): realtime-js keeps one channel
 * per topic, so two components joining it separately would share, and one leaving would end it for
 * both. It also does what the channel alone does not:
 *
 * - joins with the session's current access token (asked for before joining, not raced);
 * - after any gap (socket lost and rejoined, the server closing the channel on an expired or
 *   revoked token, the browser offline and back) it tells every listener to fetch what it missed
 *   through REST (`onResync`);
 * - a join the policies refuse stops there (no retry loop) and is reported as `refused`;
 * - when the page's own membership ends (a `memberships` message for its user, or a refusal after
 *   having been live), it leaves the channel at once: a gated room stops updating; a public room is
 *   rejoined to read along, without presence;
 * - when the page's person becomes a member (a visitor who joins in place), it joins the channel
 *   again as theirs: Realtime decides once per join whether a page may share its presence, so a
 *   channel joined (or written to) as a visitor's never shows the new member as here;
 * - when who may read the room narrows, the room's channel moves to a new topic (./access-epoch.ts):
 *   told so on the old one (`access`), or refused there after a gap, it joins the new one, where the
 *   policies decide again;
 * - in a gated room (`keepFresh`), it has the person's membership re-checked every few minutes
 *   (the database counts it only while its balance check is recent), and before giving up on a
 *   refused rejoin: a holder's page carries on, and one who no longer holds the token is told why.
 */

export type RoomSubscriber = RoomChannelHandlers & {
  /** Who is in the room now, as presence has it (every meta of every key). */
  onPresence?: (state: Record<string, PresenceMeta[]>) => void;
  /** The page's own membership ended: why, in words for the person. */
  onMembershipEnded?: (message: string) => void;
};

export interface RoomConnectionOptions {
  /** The signed-in person's id (their membership's end is watched for); null when signed out. */
  userId?: string | null;
  /** A gated room's channel is only for members: when membership ends, the page stops listening. */
  gated?: boolean;
  /** Presence key: the person's id for members who share their presence. */
  presenceKey?: string;
  /** A gated room's member: how to re-check the membership, and how often while the page is open. */
  keepFresh?: { recheck: () => Promise<Freshness>; everyMs: number };
  /** Reads the room's access epoch (through REST), when a join is refused: it may have moved on meanwhile. */
  readEpoch?: (roomId: string) => Promise<number | null>;
}

/** How long a connection outlives its last listener (moving between a room and its posts keeps it). */
const lingerMs = 3_000;
/** Wait before rejoining after the server closed the channel. */
const reopenMs = 1_000;
/** A refused join is re-checked and retried at most this often (a refusal for another reason is not a loop). */
const recheckRetryMs = 60_000;

export class RoomConnection {
  status: RoomChannelStatus = "joining";
  detail: string | undefined;
  endedMessage: string | null = null;
  private readonly subscribers = new Set<RoomSubscriber>();
  private channel: RealtimeChannel | null = null;
  private presence: Record<string, PresenceMeta[]> | null = null;
  private tracked: PresenceMeta | null = null;
  private readonly missed = new MissedChanges();
  private stopped = false;
  private generation = 0;
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;
  private freshTimer: ReturnType<typeof setInterval> | undefined;
  private lastRecheckRetry = -Infinity;
  /** The access epoch the current channel was joined at. */
  private epoch = 0;
  /** The presence key the current channel was joined with ("" for a visitor's page). */
  private presenceKey = "";
  private readonly onOffline = () => this.wentOffline();
  private readonly onOnline = () => this.cameOnline();

  constructor(
    private readonly live: LiveClient,
    readonly roomId: string,
    private options: RoomConnectionOptions,
    private readonly forget: () => void,
  ) {
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    void this.open(options.presenceKey ?? "");
  }

  /** Adds a listener; it hears the current status (and presence) at once. Returns its removal. */
  subscribe(subscriber: RoomSubscriber): () => void {
    clearTimeout(this.lingerTimer);
    this.subscribers.add(subscriber);
    subscriber.onStatus?.(this.status, this.detail);
    if (this.presence) subscriber.onPresence?.(this.presence);
    if (this.endedMessage) subscriber.onMembershipEnded?.(this.endedMessage);
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.lingerTimer = setTimeout(() => this.close(), lingerMs);
    };
  }

  /**
   * Later callers may know more (who is signed in, whether the room is gated). A presence key other
   * than the channel's (the person just became a member) joins the channel again with it.
   */
  configure(options: RoomConnectionOptions): void {
    this.options = {
      ...this.options,
      ...(options.userId !== undefined ? { userId: options.userId } : {}),
      ...(options.gated !== undefined ? { gated: options.gated } : {}),
      ...(options.keepFresh !== undefined ? { keepFresh: options.keepFresh } : {}),
      ...(options.readEpoch !== undefined ? { readEpoch: options.readEpoch } : {}),
    };
    if (options.presenceKey && options.presenceKey !== this.presenceKey) this.rejoinAs(options.presenceKey);
  }

  /** Joins the channel again with this presence key, so Realtime checks what the page may share anew. */
  private rejoinAs(presenceKey: string): void {
    if (this.stopped || this.endedMessage) return;
    this.presenceKey = presenceKey;
    this.missed.gap();
    if (this.status === "live") this.setStatus("reconnecting", "Rejoining");
    void this.leaveChannel().then(() => !this.stopped && !this.endedMessage && void this.open(presenceKey));
  }

  /** A gated room's member (its channel let them in): re-check every few minutes while the page is open. */
  private keepFresh(): void {
    const keep = this.options.keepFresh;
    if (!keep || !this.options.gated || !this.options.userId || this.freshTimer !== undefined || this.stopped) return;
    this.freshTimer = setInterval(() => void this.stillMember(), keep.everyMs);
  }

  /** Re-checks the membership; when it ended, says why and stops. True while still a member (or unknown). */
  private async stillMember(): Promise<boolean> {
    const keep = this.options.keepFresh;
    if (!keep || this.endedMessage || this.stopped) return !this.endedMessage;
    const freshness = await keep.recheck().catch((): Freshness => ({ kind: "unchecked", message: "" }));
    if (freshness.kind === "lapsed") this.membershipEnded(`${freshness.message} This page has stopped updating.`);
    else if (freshness.kind === "not_member") this.membershipEnded();
    return freshness.kind === "member" || freshness.kind === "unchecked";
  }

  /** Presence as last heard (null before the first sync). */
  presenceState(): Record<string, PresenceMeta[]> | null {
    return this.presence;
  }

  /** What this page shares as its presence (null: nothing, or stop sharing). Members only. */
  setPresence(meta: PresenceMeta | null): void {
    this.tracked = meta;
    const channel = this.channel;
    if (!channel || this.status !== "live" || this.endedMessage) return;
    void (meta ? channel.track(meta) : channel.untrack());
  }

  /** Calls every subscriber; one that throws is logged and does not keep the others from hearing. */
  private each(call: (subscriber: RoomSubscriber) => void): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        call(subscriber);
      } catch (error) {
        console.warn("A live room update could not be shown", error);
      }
    }
  }

  private setStatus(status: RoomChannelStatus, detail?: string): void {
    if (status === this.status && detail === this.detail) return;
    this.status = status;
    this.detail = detail;
    this.each((subscriber) => subscriber.onStatus?.(status, detail));
  }

  private async open(presenceKey: string): Promise<void> {
    const generation = ++this.generation;
    this.presenceKey = presenceKey;
    // The join carries the session's token as it is now: ask for it first, so a join never goes out
    // as anon (which a gated room refuses) while the client is still fetching it.
    await authorizeLive(this.live);
    // The page's other parts ask for the same channel in the same turn, one of them perhaps with
    // the presence key (configure → rejoinAs): let them, so the channel is joined once, with it,
    // even when the token was already at hand (another channel of the page asked for it first).
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (generation !== this.generation || this.stopped) return;
    this.epoch = knownEpoch(this.roomId);
    const channel = this.live.channel(roomTopic(this.roomId, this.epoch), {
      config: { private: true, presence: { key: presenceKey, enabled: true } },
    });
    this.channel = channel;
    channel.on(
      "broadcast",
      { event: "access" },
      ({ payload }) => channel === this.channel && this.accessMoved((payload as { epoch?: unknown }).epoch, presenceKey),
    );
    for (const table of roomTables) {
      channel.on("broadcast", { event: table }, ({ payload }) => deliver(table, payload, isRoomRowChange, (change) => this.change(change)));
    }
    channel.on("broadcast", { event: "memberships" }, ({ payload }) =>
      deliver("membership", payload, isMembershipChange, (change) => this.membership(change as MembershipChange)),
    );
    channel.on("broadcast", { event: "standing" }, ({ payload }) =>
      deliver("standing", payload, isStandingChange, (change) => this.standing(change)),
    );
    channel.on("presence", { event: "sync" }, () => {
      if (channel !== this.channel) return;
      const state = channel.presenceState<PresenceMeta>() as unknown as Record<string, PresenceMeta[]>;
      this.presence = state;
      this.each((subscriber) => subscriber.onPresence?.(state));
    });
    channel.subscribe((status, error) => {
      if (channel !== this.channel) return;
      const turn = channelTurn(status, error);
      if (turn.kind === "joined") return this.joined(channel);
      if (turn.kind === "refused") return void this.refused(turn.message, presenceKey);
      this.missed.gap();
      if (turn.kind === "gap") return this.setStatus("reconnecting", turn.detail);
      // Closed without this page asking: join again with a fresh token; a refusal then says why.
      this.setStatus("reconnecting", "The live connection closed");
      this.channel = null;
      setTimeout(() => void this.open(presenceKey), reopenMs);
    });
  }

  private joined(channel: RealtimeChannel): void {
    const resync = this.missed.joined();
    this.setStatus("live");
    this.keepFresh();
    if (this.tracked && !this.endedMessage) void channel.track(this.tracked);
    if (resync) this.each((subscriber) => subscriber.onResync?.());
  }

  private change(change: RoomRowChange): void {
    this.each((subscriber) => subscriber.onChange?.(change));
  }

  private membership(change: MembershipChange): void {
    this.each((subscriber) => subscriber.onMembership?.(change));
    if (endsMembershipOf(change, this.options.userId ?? null)) this.membershipEnded();
  }

  private standing(change: StandingChange): void {
    this.each((subscriber) => subscriber.onStanding?.(change));
  }

  /** Who may read the room narrowed: its channel is on a new topic now; join it (the policies decide). */
  private accessMoved(epoch: unknown, presenceKey: string): void {
    if (!heardEpoch(this.roomId, epoch, this.epoch) || this.stopped || this.endedMessage) return;
    this.missed.gap();
    this.setStatus("reconnecting", "Rejoining");
    void this.leaveChannel().then(() => !this.stopped && !this.endedMessage && void this.open(presenceKey));
  }

  private async refused(message: string, presenceKey: string): Promise<void> {
    await this.leaveChannel();
    // Refused on an older epoch's topic (it moved on while this page was away): join the current one.
    if (await epochMovedPast(this.roomId, this.epoch, this.options.readEpoch)) {
      if (!this.stopped && !this.endedMessage) void this.open(presenceKey);
      return;
    }
    const member = this.options.userId && this.options.gated;
    // A gated room's member whose check went stale: re-checked, a holder's page joins again.
    if (member && this.missed.everLive && this.options.keepFresh && Date.now() - this.lastRecheckRetry > recheckRetryMs) {
      this.lastRecheckRetry = Date.now();
      this.setStatus("reconnecting", "Checking your membership");
      void this.stillMember().then((still) => {
        if (this.stopped || this.endedMessage) return;
        if (still) return void this.open(presenceKey);
      });
      return;
    }
    // Live before and refused now: the person's membership of a gated room ended while the page was away.
    if (this.missed.everLive && member) return this.membershipEnded();
    // Who was here is no longer this page's to know (the room may have been gated meanwhile).
    if (this.presence) {
      this.presence = {};
      this.each((subscriber) => subscriber.onPresence?.({}));
    }
    this.setStatus("refused", message);
  }

  private membershipEnded(why?: string): void {
    if (this.endedMessage) return;
    const gated = this.options.gated ?? false;
    const message = why ?? membershipEndedMessage(gated, takeOwnLeave(this.roomId));
    this.endedMessage = message;
    this.tracked = null;
    this.each((subscriber) => subscriber.onMembershipEnded?.(message));
    void this.leaveChannel().then(() => {
      if (gated || this.stopped) return this.setStatus("ended", message);
      // A public room is still readable: follow it again, without presence.
      this.missed.gap();
      void this.open("");
    });
    if (gated) this.setStatus("ended", message);
  }

  private async leaveChannel(): Promise<void> {
    const channel = this.channel;
    this.channel = null;
    this.generation++;
    // Wait until realtime-js has forgotten the channel: it forgets channels by topic, so a new
    // channel for the same room made before the old one closed would be forgotten with it.
    if (channel) await this.live.removeChannel(channel).catch(() => undefined);
  }

  private wentOffline(): void {
    if (this.status !== "live") return;
    this.missed.gap();
    this.setStatus("reconnecting", "Offline");
  }

  /** Back online: a socket that lived through it may have missed nothing, or not — check, and fetch. */
  private cameOnline(): void {
    if (!this.missed.pending || this.stopped || !this.channel) return;
    probeSocketAfterOnline(this.live);
    if (this.channel.state === "joined") this.joined(this.channel);
  }

  private close(): void {
    this.stopped = true;
    clearInterval(this.freshTimer);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.forget();
    void this.leaveChannel();
  }
}

const connections = new Map<string, RoomConnection>();

/** The page's connection to a room (made on first use; the first caller's options hold). */
export function roomConnection(live: LiveClient, roomId: string, options: RoomConnectionOptions): RoomConnection {
  let connection = connections.get(roomId);
  if (!connection) {
    connection = new RoomConnection(live, roomId, options, () => connections.delete(roomId));
    connections.set(roomId, connection);
  } else {
    connection.configure(options);
  }
  return connection;
}
