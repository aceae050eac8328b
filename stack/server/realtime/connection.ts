import type { WebSocket } from "ws";
import { Channel, type ChannelTransport, type RealtimeServices, type Reply } from "./channel.ts";
import { type PhxMessage, type Vsn, decodeFrame, encodeMessage } from "./frames.ts";

/** Closes a socket whose peer sent something that is not a Phoenix frame (Phoenix drops such sockets too). */
const invalidFrameCode = 1007;
/** Realtime's max_channels_per_client default. */
const maxChannels = 100;

/**
 * One WebSocket, as Phoenix.Socket runs it: heartbeats on `phoenix`, joins and leaves, and the
 * events of joined channels. Frames are handled one at a time, in order, like Phoenix's socket process.
 */
export class Connection implements ChannelTransport {
  readonly vsn: Vsn;
  readonly apikeyJwt: string;
  private readonly ws: WebSocket;
  private readonly services: RealtimeServices;
  private readonly channels = new Map<string, Channel>();
  private queue: Promise<void> = Promise.resolve();
  private open = true;
  private lastFrameAt = Date.now();

  constructor(ws: WebSocket, vsn: Vsn, apikeyJwt: string, services: RealtimeServices) {
    this.ws = ws;
    this.vsn = vsn;
    this.apikeyJwt = apikeyJwt;
    this.services = services;
    ws.on("message", (data, isBinary) => {
      this.lastFrameAt = Date.now();
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
      this.queue = this.queue
        .then(() => this.onFrame(bytes, isBinary))
        .catch((error) => this.services.log(`[realtime] ${(error as Error).stack ?? error}`));
    });
    ws.on("close", () => this.onClose());
    ws.on("error", (error) => this.services.log(`[realtime] socket error: ${error.message}`));
  }

  push(topic: string, event: string, payload: unknown, joinRef: string | null = null, ref: string | null = null): void {
    this.pushRaw(encodeMessage({ joinRef, ref, topic, event, payload }, this.vsn));
  }

  pushRaw(frame: string | Buffer): void {
    if (this.open && this.ws.readyState === this.ws.OPEN) this.ws.send(frame);
  }

  pushText(frame: Buffer): void {
    if (this.open && this.ws.readyState === this.ws.OPEN) this.ws.send(frame, { binary: false });
  }

  closed(channel: Channel): void {
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
  }

  private reply(message: PhxMessage, reply: Reply, joinRef = message.joinRef): void {
    this.push(message.topic, "phx_reply", reply, joinRef, message.ref);
  }

  private async onFrame(bytes: Buffer, isBinary: boolean): Promise<void> {
    if (!this.open) return;
    const decoded = decodeFrame(bytes, isBinary, this.vsn);
    if (!decoded.ok) {
      this.services.log(`[realtime] closing a socket that sent an invalid frame: ${decoded.reason}`);
      this.ws.close(invalidFrameCode, `Invalid frame: ${decoded.reason}`.slice(0, 120));
      return;
    }
    const { message, userBroadcast } = decoded;
    if (message.topic === "phoenix" && message.event === "heartbeat") return this.reply(message, { status: "ok", response: {} }, null);
    const channel = this.channels.get(message.topic);
    if (message.event === "phx_join") return await this.join(message, channel);
    if (!channel) {
      if (message.event === "phx_leave") return this.reply(message, { status: "ok", response: {} });
      return this.reply(message, { status: "error", response: { reason: "unmatched topic" } }, null);
    }
    if (message.event === "phx_leave") {
      channel.leave();
      this.channels.delete(message.topic);
      this.reply(message, { status: "ok", response: {} });
      this.push(message.topic, "phx_close", {}, channel.joinRef, channel.joinRef);
      return;
    }
    const reply = await channel.handle(message.event, message.payload, userBroadcast);
    if (reply && message.ref !== null) this.reply(message, reply);
  }

  private async join(message: PhxMessage, existing: Channel | undefined): Promise<void> {
    if (!message.topic.startsWith("realtime:")) {
      this.services.log(`[realtime] Ignoring unmatched topic "${message.topic}"`);
      return this.reply(message, { status: "error", response: { reason: "unmatched topic" } }, null);
    }
    if (!existing && this.channels.size >= maxChannels) {
      return this.reply(message, { status: "error", response: { reason: "ChannelRateLimitReached: Too many channels" } });
    }
    // A second join of a joined topic replaces the first channel, as Phoenix does.
    if (existing) {
      existing.leave();
      this.channels.delete(message.topic);
    }
    const channel = new Channel(this, this.services, message.topic, message.joinRef);
    const payload =
      message.payload && typeof message.payload === "object" && !Array.isArray(message.payload)
        ? (message.payload as Record<string, unknown>)
        : {};
    let reply: Reply;
    try {
      reply = await channel.join(payload);
    } catch (error) {
      this.services.log(`[realtime] UnknownErrorOnChannel: ${(error as Error).stack ?? error}`);
      channel.leave();
      reply = { status: "error", response: { reason: "Unknown Error on Channel" } };
    }
    if (reply.status === "ok" && this.open) this.channels.set(message.topic, channel);
    else channel.leave();
    this.reply(message, reply);
  }

  private onClose(): void {
    this.open = false;
    for (const channel of this.channels.values()) channel.leave();
    this.channels.clear();
  }

  closeIfIdle(ms: number): void {
    if (this.open && Date.now() - this.lastFrameAt > ms) {
      this.services.log("[realtime] closing a socket that sent nothing (not even a heartbeat) for a minute");
      this.close(1000, "heartbeat timeout");
    }
  }

  /** Server shutdown: clients see the socket go away and reconnect on their own. */
  close(code = 1001, reason = "server shutting down"): void {
    this.ws.close(code, reason);
    this.onClose();
  }
}
