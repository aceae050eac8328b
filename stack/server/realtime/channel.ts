import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { Claims } from "../jwt.ts";
import type { BroadcastFeed, BroadcastReceiver, EncodedBroadcast } from "./broadcast/feed.ts";
import { type ReadPolicies, type WritePolicies, readPolicies, writePolicies } from "./authorization.ts";
import type { ChangeBinding, ChangeParams, ChangesFeed, ChangeSubscriber } from "./changes/types.ts";
import { type UserBroadcast, broadcastPayload, encodeUserBroadcast } from "./frames.ts";
import { type TopicHub, tenantTopicOf } from "./hub.ts";
import type { PresenceDiff, PresenceStore } from "./presence.ts";
import { channelToken, checkAccessToken } from "./tokens.ts";

/** What every channel of the server shares. */
export interface RealtimeServices {
  adminPool: pg.Pool;
  hub: TopicHub<Channel>;
  presence: PresenceStore;
  changes: ChangesFeed;
  broadcasts: BroadcastFeed;
  log: (line: string) => void;
}

/** The socket a channel lives on (see connection.ts). */
export interface ChannelTransport {
  readonly vsn: "1.0.0" | "2.0.0";
  readonly apikeyJwt: string;
  push(topic: string, event: string, payload: unknown, joinRef?: string | null, ref?: string | null): void;
  pushRaw(frame: string | Buffer): void;
  /** A text frame already encoded as UTF-8 (shared by many sockets: never modified). */
  pushText(frame: Buffer): void;
  /** The channel ended on the server's side: the socket forgets it. */
  closed(channel: Channel): void;
}

export type Reply = { status: "ok" | "error"; response: Record<string, unknown> };

type Config = {
  broadcast?: { self?: unknown; ack?: unknown };
  presence?: { key?: unknown; enabled?: unknown };
  postgres_changes?: unknown;
  postgres_changes_options?: unknown;
  private?: unknown;
};

function objectOr(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A small, stable integer per postgres_changes entry, as Realtime's :erlang.phash2(params). */
function bindingId(params: ChangeParams): number {
  const text = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((key) => [key, params[key]]),
  );
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 134_217_728;
}

/** Realtime's defaults: postgres_changes_options.timeout 15 s, clamped to 20 s; replication_ready 15 s. */
const defaultWaitMs = 15_000;
const maxWaitMs = 20_000;
const replicationReadyTimeoutMs = 15_000;
/** How long a join waits for Broadcast from the database to stream (only after a database outage or at startup). */
const broadcastReadyTimeoutMs = 5_000;

function reason(code: string, message: string): Reply {
  return { status: "error", response: { reason: `${code}: ${message}` } };
}

export class Channel implements ChangeSubscriber, BroadcastReceiver {
  readonly topic: string;
  readonly subTopic: string;
  readonly joinRef: string | null;
  tenantTopic = "";
  private readonly transport: ChannelTransport;
  private readonly services: RealtimeServices;
  private selfBroadcast = false;
  private ackBroadcast = false;
  private isPrivate = false;
  private presenceEnabled = false;
  private presenceKey = "";
  private accessToken = "";
  private claims: Claims = {};
  private readPolicy?: ReadPolicies;
  private writePolicy?: WritePolicies;
  private bindings: ChangeBinding[] = [];
  private expiryTimer?: NodeJS.Timeout;
  private active = false;
  /** The part of this channel's broadcast frames before the payload. */
  private broadcastFrameStart?: string;
  /** Set once the join reply is out: nothing else is pushed before it. */
  private replied = false;

  constructor(transport: ChannelTransport, services: RealtimeServices, topic: string, joinRef: string | null) {
    this.transport = transport;
    this.services = services;
    this.topic = topic;
    this.subTopic = topic.slice("realtime:".length);
    this.joinRef = joinRef;
  }

  async join(payload: Record<string, unknown>): Promise<Reply> {
    if (this.subTopic === "") return reason("TopicNameRequired", "You must provide a topic name");
    const config = objectOr(payload.config) as Config;
    const broadcast = objectOr(config.broadcast);
    const presence = objectOr(config.presence);
    this.selfBroadcast = broadcast.self === true;
    this.ackBroadcast = broadcast.ack === true;
    this.isPrivate = config.private === true;
    // Clients older than presence.enabled always received presence.
    this.presenceEnabled = presence.enabled === undefined ? true : presence.enabled === true;
    this.presenceKey = typeof presence.key === "string" && presence.key !== "" ? presence.key : randomUUID();
    this.accessToken = channelToken(payload, this.transport.apikeyJwt);
    const token = checkAccessToken(this.accessToken);
    if (!token.ok) return reason(token.code, token.message);
    this.claims = token.claims;
    if (this.isPrivate) {
      const denied = await this.authorizeRead();
      if (denied) return denied;
    }
    if (broadcast.replay !== undefined && !this.isPrivate)
      return reason("UnableToReplayMessages", "Replay is not allowed for public channels");

    const entries = Array.isArray(config.postgres_changes)
      ? config.postgres_changes.filter((e): e is ChangeParams => !!e && typeof e === "object" && !Array.isArray(e))
      : [];
    this.bindings = entries.map((params) => ({ id: bindingId(params), params }));
    // Once joined, a channel gets every message committed after its join reply: the stream of
    // realtime.messages must be running before the reply goes out.
    if (!(await this.services.broadcasts.ready(broadcastReadyTimeoutMs))) {
      return reason("UnableToConnectToProject", "Realtime was unable to connect to the project database");
    }
    this.tenantTopic = tenantTopicOf(this.subTopic, this.isPrivate);
    this.active = true;
    const options = objectOr(config.postgres_changes_options);
    let subscribedBeforeReply = false;
    if (options.wait === true && this.bindings.length > 0) {
      const requested = typeof options.timeout === "number" && options.timeout > 0 ? options.timeout : defaultWaitMs;
      const failure = await this.awaitSubscription(Math.min(requested, maxWaitMs));
      if (failure) {
        this.leave();
        return failure;
      }
      subscribedBeforeReply = true;
    }
    this.services.hub.add(this);
    this.scheduleExpiry(token.expiresInMs);
    // After the join reply has gone out, as Realtime sends presence_state and system messages.
    setImmediate(() => this.afterJoin(subscribedBeforeReply, broadcast.replication_ready === true));
    return { status: "ok", response: { postgres_changes: this.bindings.map(({ id, params }) => ({ ...params, id })) } };
  }

  /** postgres_changes_options.wait: hold the join reply until the subscription is in place, as Realtime does. */
  private async awaitSubscription(timeoutMs: number): Promise<Reply | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = await this.services.changes.subscribe(this, this.bindings, this.claims);
      if (result.ok) return undefined;
      if (!result.retry) return reason("RealtimeDisabledForConfiguration", result.message);
      if (Date.now() + 500 > deadline) {
        return reason("PostgresChangesSubscribeTimeout", `Timed out after ${timeoutMs}ms waiting for the postgres_changes subscription`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  private async authorizeRead(): Promise<Reply | undefined> {
    try {
      this.readPolicy = await readPolicies(this.services.adminPool, this.subTopic, this.claims);
      this.writePolicy = undefined;
    } catch (error) {
      this.services.log(`[realtime] RlsPolicyError on ${this.subTopic}: ${(error as Error).message}`);
      if ((error as { code?: string }).code)
        return reason("Unauthorized", `You do not have permissions to read from this Channel topic: ${this.subTopic}`);
      return { status: "error", response: { reason: "Realtime was unable to connect to the project database" } };
    }
    if (!this.readPolicy.broadcast && !this.readPolicy.presence) {
      return reason("Unauthorized", `You do not have permissions to read from this Channel topic: ${this.subTopic}`);
    }
    return undefined;
  }

  private afterJoin(subscribed: boolean, replicationReady: boolean): void {
    if (!this.active) return;
    this.replied = true;
    if (this.presenceEnabled) this.pushPresenceState();
    if (subscribed) this.system("postgres_changes", "ok", "Subscribed to PostgreSQL");
    else if (this.bindings.length > 0) void this.subscribeChanges();
    if (replicationReady) void this.notifyReplicationReady();
  }

  /** broadcast.replication_ready: a system message once the replication stream runs (or an error after the timeout). */
  private async notifyReplicationReady(): Promise<void> {
    // Realtime reports its replication connection for Broadcast from the database; postgres_changes
    // rides on its own stream, which is waited for too.
    const ready =
      (await this.services.broadcasts.ready(replicationReadyTimeoutMs)) && (await this.services.changes.ready(replicationReadyTimeoutMs));
    if (!this.active) return;
    if (ready) this.system("system", "ok", "Replication connection established");
    else this.shutdown("Replication connection was not established in time");
  }

  private canReadPresence(): boolean {
    return !this.isPrivate || this.readPolicy?.presence === true;
  }

  private pushPresenceState(): void {
    if (this.canReadPresence())
      this.transport.push(this.topic, "presence_state", this.services.presence.list(this.tenantTopic), this.joinRef);
  }

  private async subscribeChanges(): Promise<void> {
    const result = await this.services.changes.subscribe(this, this.bindings, this.claims);
    if (!this.active) return this.services.changes.unsubscribe(this);
    if (result.ok) return this.system("postgres_changes", "ok", "Subscribed to PostgreSQL");
    this.system("postgres_changes", "error", result.message);
    if (result.retry) setTimeout(() => this.active && void this.subscribeChanges(), 2000 + Math.random() * 3000).unref();
  }

  system(extension: string, status: "ok" | "error", message: string): void {
    this.transport.push(this.topic, "system", { message, status, extension, channel: this.subTopic }, this.joinRef);
  }

  deliverChange(ids: number[], dataJson: string): void {
    if (!this.active || !this.replied) return;
    const topic = JSON.stringify(this.topic);
    const payload = `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`;
    const joinRef = JSON.stringify(this.joinRef);
    this.transport.pushRaw(
      this.transport.vsn === "2.0.0"
        ? `[${joinRef},null,${topic},"postgres_changes",${payload}]`
        : `{"join_ref":${joinRef},"ref":null,"topic":${topic},"event":"postgres_changes","payload":${payload}}`,
    );
  }

  private scheduleExpiry(ms: number): void {
    clearTimeout(this.expiryTimer);
    // Node timers overflow past ~24.8 days; a token that lives longer is re-checked then.
    this.expiryTimer = setTimeout(() => this.onExpiry(), Math.min(Math.max(ms, 0), 2_000_000_000));
    this.expiryTimer.unref();
  }

  private onExpiry(): void {
    const token = checkAccessToken(this.accessToken);
    if (token.ok) return this.scheduleExpiry(token.expiresInMs);
    this.shutdown(token.message);
  }

  /** Ends the channel from the server's side: a system error, then phx_close (Realtime's shutdown_response). */
  shutdown(message: string): void {
    if (!this.active) return;
    this.system("system", "error", message);
    this.transport.push(this.topic, "phx_close", {}, this.joinRef, this.joinRef);
    this.leave();
    this.transport.closed(this);
  }

  /** Handles an event pushed by the client on this joined channel; returns the reply, if any. */
  async handle(event: string, payload: unknown, userBroadcast?: UserBroadcast): Promise<Reply | undefined> {
    switch (event) {
      case "broadcast":
        return await this.onBroadcast(payload, userBroadcast);
      case "presence":
        return await this.onPresence(objectOr(payload));
      case "access_token":
        await this.onAccessToken(objectOr(payload).access_token);
        return undefined;
      default:
        this.services.log(`[realtime] Unexpected message from client of type \`${event}\` on ${this.subTopic}`);
        return undefined;
    }
  }

  private async canWrite(kind: "broadcast" | "presence"): Promise<boolean> {
    if (!this.isPrivate) return true;
    try {
      this.writePolicy ??= await writePolicies(this.services.adminPool, this.subTopic, this.claims);
    } catch (error) {
      this.services.log(`[realtime] UnableToSetPolicies on ${this.subTopic}: ${(error as Error).message}`);
      return false;
    }
    return this.writePolicy[kind];
  }

  private async onBroadcast(payload: unknown, userBroadcast?: UserBroadcast): Promise<Reply | undefined> {
    if (!(await this.canWrite("broadcast"))) return undefined;
    for (const member of this.services.hub.members(this.tenantTopic)) {
      if (member === this && !this.selfBroadcast) continue;
      if (userBroadcast) member.receiveUserBroadcast(userBroadcast);
      else member.receiveBroadcast(payload);
    }
    return this.ackBroadcast ? { status: "ok", response: {} } : undefined;
  }

  private canReceiveBroadcast(): boolean {
    return this.active && (!this.isPrivate || this.readPolicy?.broadcast === true);
  }

  /** A JSON broadcast, forwarded as the sender pushed it ({type, event, payload}). */
  receiveBroadcast(payload: unknown): void {
    if (this.canReceiveBroadcast()) this.transport.push(this.topic, "broadcast", payload, this.joinRef);
  }

  /** A broadcast from the database: its frame bytes are shared with every socket whose frame starts like this one's. */
  receiveDatabaseBroadcast(message: EncodedBroadcast): void {
    if (!this.canReceiveBroadcast()) return;
    this.broadcastFrameStart ??=
      this.transport.vsn === "2.0.0"
        ? `[${JSON.stringify(this.joinRef)},null,${JSON.stringify(this.topic)},"broadcast",`
        : `{"join_ref":${JSON.stringify(this.joinRef)},"ref":null,"topic":${JSON.stringify(this.topic)},"event":"broadcast","payload":`;
    this.transport.pushText(message.frame(this.broadcastFrameStart, this.transport.vsn === "2.0.0" ? "]" : "}"));
  }

  receiveUserBroadcast(broadcast: UserBroadcast): void {
    if (!this.canReceiveBroadcast()) return;
    if (this.transport.vsn === "2.0.0" && Buffer.byteLength(this.topic) < 256 && Buffer.byteLength(broadcast.event) < 256) {
      this.transport.pushRaw(encodeUserBroadcast(this.topic, broadcast));
      return;
    }
    const json = broadcastPayload(broadcast);
    if (json) this.transport.push(this.topic, "broadcast", json, this.joinRef);
  }

  private async onPresence(payload: Record<string, unknown>): Promise<Reply> {
    if (!(await this.canWrite("presence"))) return { status: "ok", response: {} };
    const event = typeof payload.event === "string" ? payload.event.toLowerCase() : "";
    if (event === "track") {
      const meta = objectOr(payload.payload);
      if (!this.presenceEnabled) {
        this.presenceEnabled = true;
        this.pushPresenceState();
      }
      this.fanOutPresence(this.services.presence.track(this.tenantTopic, this, this.presenceKey, meta));
      return { status: "ok", response: {} };
    }
    if (event === "untrack") {
      const diff = this.services.presence.untrack(this.tenantTopic, this);
      if (diff) this.fanOutPresence(diff);
      return { status: "ok", response: {} };
    }
    return { status: "error", response: {} };
  }

  private fanOutPresence(diff: PresenceDiff): void {
    for (const member of this.services.hub.members(this.tenantTopic)) member.receivePresenceDiff(diff);
  }

  receivePresenceDiff(diff: PresenceDiff): void {
    if (this.active && this.presenceEnabled && this.canReadPresence()) this.transport.push(this.topic, "presence_diff", diff, this.joinRef);
  }

  private async onAccessToken(given: unknown): Promise<void> {
    if (typeof given !== "string" || given.startsWith("sb_") || given === this.accessToken) return;
    this.accessToken = given;
    const token = checkAccessToken(given);
    if (!token.ok) return this.shutdown(token.message);
    this.claims = token.claims;
    this.scheduleExpiry(token.expiresInMs);
    if (this.isPrivate) {
      const before = this.readPolicy;
      const denied = await this.authorizeRead();
      const revoked = (before?.broadcast && !this.readPolicy?.broadcast) || (before?.presence && !this.readPolicy?.presence);
      if (denied || revoked) return this.shutdown(`You no longer have permission to read from this Channel topic: ${this.subTopic}`);
    }
    if (this.bindings.length > 0) this.services.changes.updateClaims(this, this.claims);
  }

  /** Leaves the topic: untracks presence, drops postgres_changes subscriptions. Idempotent. */
  leave(): void {
    if (!this.active) return;
    this.active = false;
    clearTimeout(this.expiryTimer);
    this.services.hub.remove(this);
    const diff = this.services.presence.untrack(this.tenantTopic, this);
    if (diff) this.fanOutPresence(diff);
    if (this.bindings.length > 0) this.services.changes.unsubscribe(this);
  }
}
