import type { RealtimeChannel } from "@supabase/realtime-js";
import { channelTurn, MissedChanges } from "@/lib/realtime/channel-status";
import type { LiveClient } from "@/lib/supabase/live-client";
import { authorizeLive } from "@/lib/realtime/live-auth";
import { epochMovedPast, heardEpoch, knownEpoch } from "@/lib/realtime/access-epoch";
import { presentIds } from "@/lib/realtime/here-rows";
import type { PresenceMeta } from "@/lib/realtime/presence";
import { type QueueChange, type SessionRow, sessionTopic } from "./types";
import { probeSocketAfterOnline } from "@/lib/realtime/socket-probe";
import { deliver, isSessionRow, rowChangeOf } from "@/lib/realtime/live-updates";
import { type HostBeat, hostBeatOf } from "./host-silence";
import { type ReadyMark, readyMarkOf } from "./ready-check";

/**
 * The session page's connection to `session:{room id}`, the room's private session channel:
 *
 * - joins with the session's current access token (asked for before joining, as the room's
 *   connection does), presence keyed by the person's id;
 * - hears `session` (the row, each new version), `queue` (a queue change), `host` (the host's
 *   heartbeat) and `ready` (a member's player is ready: ./ready-check.ts) broadcasts, which only the
 *   database sends;
 * - after any gap (socket lost and rejoined, the server closing the channel, the browser offline
 *   and back) asks for a fetch through REST (`onResync`): what it missed is not replayed;
 * - when who may read the room narrows, the channel moves to a new topic (lib/realtime/access-epoch.ts):
 *   told so on the old one (`access`), or refused there, it joins the new one;
 * - a join the policies refuse (not a member) stops there and is reported as `refused`.
 */

export type SessionChannelStatus = "joining" | "live" | "reconnecting" | "refused" | "closed";

export interface SessionChannelHandlers {
  onSession(row: SessionRow): void;
  onQueue(change: QueueChange): void;
  /** The ids presence names (hints: who is listening comes from the database's rows, lib/realtime/here-rows.ts). */
  onPresence(ids: Set<string>): void;
  /** The host's page beat (the database sends each heartbeat: ./host-silence.ts). */
  onHostBeat?(beat: HostBeat): void;
  /** A member's page said its player is ready (the database sends it: ./ready-check.ts). */
  onReady?(mark: ReadyMark): void;
  onStatus(status: SessionChannelStatus, detail?: string): void;
  /** Live again after a gap: fetch the session and queue through REST. */
  onResync(): void;
}

const reopenMs = 1_000;

const isQueueChange = rowChangeOf<QueueChange>(["session_queue"]);

const sessionRefusedMessage = "Only members of this room can listen together — join the room to take part.";

export class SessionConnection {
  status: SessionChannelStatus = "joining";
  private channel: RealtimeChannel | null = null;
  private tracked: PresenceMeta | null = null;
  private readonly missed = new MissedChanges();
  private stopped = false;
  private generation = 0;
  /** The access epoch the current channel was joined at. */
  private epoch = 0;
  private readonly onOffline = () => this.wentOffline();
  private readonly onOnline = () => this.cameOnline();

  constructor(
    private readonly live: LiveClient,
    readonly roomId: string,
    private readonly userId: string,
    private readonly handlers: SessionChannelHandlers,
    /** Reads the room's access epoch through REST, when a join is refused (it may have moved on). */
    private readonly readEpoch?: (roomId: string) => Promise<number | null>,
  ) {
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    void this.open();
  }

  /** What this page shares as presence (null: nothing). */
  setPresence(meta: PresenceMeta | null): void {
    this.tracked = meta;
    const channel = this.channel;
    if (!channel || this.status !== "live") return;
    void (meta ? channel.track(meta) : channel.untrack());
  }

  private setStatus(status: SessionChannelStatus, detail?: string): void {
    this.status = status;
    this.handlers.onStatus(status, detail);
  }

  private async open(): Promise<void> {
    const generation = ++this.generation;
    await authorizeLive(this.live);
    if (generation !== this.generation || this.stopped) return;
    this.epoch = knownEpoch(this.roomId);
    const channel = this.live.channel(sessionTopic(this.roomId, this.epoch), {
      config: { private: true, presence: { key: this.userId, enabled: true } },
    });
    this.channel = channel;
    channel.on(
      "broadcast",
      { event: "access" },
      ({ payload }) => channel === this.channel && this.accessMoved((payload as { epoch?: unknown }).epoch),
    );
    channel.on(
      "broadcast",
      { event: "session" },
      ({ payload }) =>
        channel === this.channel && deliver("session", payload, isSessionRow, (row) => this.handlers.onSession(row as SessionRow)),
    );
    channel.on(
      "broadcast",
      { event: "queue" },
      ({ payload }) => channel === this.channel && deliver("queue", payload, isQueueChange, (change) => this.handlers.onQueue(change)),
    );
    channel.on("broadcast", { event: "host" }, ({ payload }) => {
      const beat = hostBeatOf(payload);
      if (beat && channel === this.channel) this.handlers.onHostBeat?.(beat);
    });
    channel.on("broadcast", { event: "ready" }, ({ payload }) => {
      const mark = readyMarkOf(payload);
      if (mark && channel === this.channel) this.handlers.onReady?.(mark);
    });
    channel.on("presence", { event: "sync" }, () => {
      if (channel !== this.channel) return;
      const state = channel.presenceState() as unknown as Record<string, unknown[]>;
      // A socket that came back may have rejoined without this page's presence: share it again,
      // or the others would count this page as gone (and pass it over when the host leaves).
      if (this.tracked && this.status === "live" && !state[this.userId]?.length) void channel.track(this.tracked);
      this.handlers.onPresence(presentIds(state));
    });
    channel.subscribe((status, error) => {
      if (channel !== this.channel) return;
      const turn = channelTurn(status, error);
      if (turn.kind === "joined") return this.joined(channel);
      if (turn.kind === "refused") return void this.refused();
      this.missed.gap();
      if (turn.kind === "gap") return this.setStatus("reconnecting", turn.detail);
      // Closed by the server: join again with a fresh token, once realtime-js has forgotten this
      // channel (it keeps one per topic, and would hand it back).
      this.setStatus("reconnecting", "The live connection closed");
      void this.leaveChannel().then(() => setTimeout(() => !this.stopped && void this.open(), reopenMs));
    });
  }

  /** Who may read the room narrowed: the channel is on a new topic now; join it (the policies decide). */
  private accessMoved(epoch: unknown): void {
    if (!heardEpoch(this.roomId, epoch, this.epoch) || this.stopped) return;
    this.missed.gap();
    this.setStatus("reconnecting", "Rejoining");
    void this.leaveChannel().then(() => !this.stopped && void this.open());
  }

  private async refused(): Promise<void> {
    await this.leaveChannel();
    // Refused on an older epoch's topic (it moved on while this page was away): join the current one.
    if (await epochMovedPast(this.roomId, this.epoch, this.readEpoch)) {
      if (!this.stopped) void this.open();
      return;
    }
    this.setStatus("refused", sessionRefusedMessage);
  }

  private joined(channel: RealtimeChannel): void {
    const resync = this.missed.joined();
    this.setStatus("live");
    if (this.tracked) void channel.track(this.tracked);
    if (resync) this.handlers.onResync();
  }

  private wentOffline(): void {
    this.missed.gap();
    if (this.status === "live") this.setStatus("reconnecting", "Offline");
  }

  /**
   * Back online. The socket may have lived through it (Chromium's offline emulation holds its
   * frames rather than closing it), so what was missed is fetched now, not when the socket notices.
   */
  private cameOnline(): void {
    if (this.stopped || !this.channel) return;
    probeSocketAfterOnline(this.live);
    if (this.channel.state === "joined") this.joined(this.channel);
    else this.handlers.onResync();
  }

  private async leaveChannel(): Promise<void> {
    const channel = this.channel;
    this.channel = null;
    this.generation++;
    if (channel) await this.live.removeChannel(channel).catch(() => undefined);
  }

  close(): void {
    this.stopped = true;
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    void this.leaveChannel();
  }
}
