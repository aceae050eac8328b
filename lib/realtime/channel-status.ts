/**
 * What a private channel's join status means to a page that follows the channel, and when a join
 * must be followed by a fetch. The room's connection and the listening session's connection both
 * follow their channel this way.
 */

/** Realtime's reason when the policies refuse a join ("Unauthorized: You do not have permissions to read …"). */
function isRefusal(message: string): boolean {
  return /unauthori[sz]ed|permissions? to read|denied|policy/i.test(message);
}

export type ChannelTurn =
  /** Joined (first time, or again after a gap). */
  | { kind: "joined" }
  /** The policies turned the join down: stop, and say so (no retry loop). */
  | { kind: "refused"; message: string }
  /** Connection lost or timed out: realtime-js joins again by itself. */
  | { kind: "gap"; detail?: string }
  /** The server ended the channel (an expired or revoked token, a restart): join again with a fresh token. */
  | { kind: "closed" };

/** Reads the status realtime-js passes to `channel.subscribe`'s callback. */
export function channelTurn(status: string, error?: Error): ChannelTurn {
  if (status === "SUBSCRIBED") return { kind: "joined" };
  if (status === "CHANNEL_ERROR") {
    const message = error?.message ?? "";
    return isRefusal(message) ? { kind: "refused", message } : { kind: "gap", detail: message };
  }
  if (status === "TIMED_OUT") return { kind: "gap" };
  return { kind: "closed" };
}

/**
 * Whether a join has to be followed by a fetch through REST: what is broadcast while a page is not
 * joined is not replayed. The first join needs none (the page was rendered with the data); every
 * later one does, as does a join after a gap noticed before the channel was ever live.
 */
export class MissedChanges {
  private live = false;
  private missed = false;

  /** The channel has been joined at least once. */
  get everLive(): boolean {
    return this.live;
  }

  /** Something may have been missed (a gap, a close, the browser offline). */
  gap(): void {
    this.missed = true;
  }

  get pending(): boolean {
    return this.missed;
  }

  /** The channel is joined: true when the page must fetch what it missed. */
  joined(): boolean {
    const resync = this.live || this.missed;
    this.live = true;
    this.missed = false;
    return resync;
  }
}
