import type { RealtimeChannel } from "@supabase/realtime-js";
import { channelTurn, MissedChanges } from "@/lib/realtime/channel-status";
import { authorizeLive } from "@/lib/realtime/live-auth";
import type { LiveClient } from "@/lib/supabase/live-client";

/** The private channel only its person may join; the database sends `notification` and `notifications_read` on it. */
export const userTopic = (userId: string) => `user:${userId}`;

export type UserChannelEvent =
  /** A new notification (not a held-back one): its id and kind, never its words. */
  | { type: "notification"; id: string; kind: string }
  /** Some were marked read (in this page or another). */
  | { type: "read" }
  /** Joined again after a gap: anything may have been missed; read it again. */
  | { type: "resync" };

export type UserChannelListener = (event: UserChannelEvent) => void;

/** Wait before joining again after the server closed the channel. */
const reopenMs = 1_000;
/** How long the channel outlives its last listener (moving from one page to the next keeps it). */
const lingerMs = 3_000;

/**
 * A page's one join of `user:{id}`, shared by the bell and the notifications page, in the manner of
 * the rooms' connections (lib/realtime/room-connection.ts): it joins with the session's current
 * token (a refreshed token reaches it through the live client's setAuth, and a sign-out removes it
 * with the client's other channels); after any gap it tells its listeners to read again, since the
 * database does not replay what was sent meanwhile; a join the policies refuse is not retried.
 */
class UserChannel {
  private readonly listeners = new Set<UserChannelListener>();
  private channel: RealtimeChannel | null = null;
  private readonly missed = new MissedChanges();
  private generation = 0;
  private stopped = false;
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onOffline = () => this.missed.gap();
  private readonly onOnline = () => {
    if (this.missed.pending && this.channel?.state === "joined") this.joined();
  };

  constructor(
    private readonly live: LiveClient,
    readonly userId: string,
    private readonly forget: () => void,
  ) {
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    void this.open();
  }

  subscribe(listener: UserChannelListener): () => void {
    clearTimeout(this.lingerTimer);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.lingerTimer = setTimeout(() => this.close(), lingerMs);
    };
  }

  private emit(event: UserChannelEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.warn("A notification could not be shown", error);
      }
    }
  }

  private async open(): Promise<void> {
    const generation = ++this.generation;
    // Never joined as anon (which the channel refuses): the token is asked for first.
    await authorizeLive(this.live);
    if (generation !== this.generation || this.stopped) return;
    const channel = this.live.channel(userTopic(this.userId), { config: { private: true } });
    this.channel = channel;
    channel.on("broadcast", { event: "notification" }, ({ payload }) => {
      const { id, kind } = (payload ?? {}) as { id?: unknown; kind?: unknown };
      if (channel === this.channel && typeof id === "string" && typeof kind === "string") this.emit({ type: "notification", id, kind });
    });
    channel.on("broadcast", { event: "notifications_read" }, () => channel === this.channel && this.emit({ type: "read" }));
    channel.subscribe((status, error) => {
      if (channel !== this.channel) return;
      const turn = channelTurn(status, error);
      if (turn.kind === "joined") return this.joined();
      if (turn.kind === "refused") return void this.leave();
      this.missed.gap();
      if (turn.kind === "closed" && !this.stopped) {
        // Closed without this page asking (an expired token, a restart): join again with a fresh token.
        this.channel = null;
        setTimeout(() => !this.stopped && void this.open(), reopenMs);
      }
    });
  }

  private joined(): void {
    if (this.missed.joined()) this.emit({ type: "resync" });
  }

  private async leave(): Promise<void> {
    const channel = this.channel;
    this.channel = null;
    this.generation++;
    if (channel) await this.live.removeChannel(channel).catch(() => undefined);
  }

  private close(): void {
    this.stopped = true;
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.forget();
    void this.leave();
  }
}

let current: UserChannel | null = null;

/** The page's join of the person's own channel (one per page; another person's replaces it). */
export function userChannel(live: LiveClient, userId: string): { subscribe: (listener: UserChannelListener) => () => void } {
  if (!current || current.userId !== userId) {
    const made: UserChannel = new UserChannel(live, userId, () => {
      if (current === made) current = null;
    });
    current = made;
  }
  return current;
}
