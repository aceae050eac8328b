import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import { sendJson } from "../gateway.ts";
import type { Claims } from "../jwt.ts";
import { writePolicies } from "./authorization.ts";
import type { Channel } from "./channel.ts";
import type { UserBroadcast } from "./frames.ts";
import { type TopicHub, tenantTopicOf } from "./hub.ts";
import { checkAccessToken } from "./tokens.ts";

/**
 * Realtime's REST broadcast: POST /api/broadcast with {messages: [{topic, event, payload, private}]}
 * (what realtime-js falls back to before a channel is joined), and
 * POST /api/broadcast/:topic/events/:event (httpSend), JSON or application/octet-stream.
 */
const maxBodyBytes = 3 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

type Message = { topic: string; event: string; payload: unknown; private: boolean };

function validateBatch(body: unknown): { messages: Message[] } | { errors: unknown } {
  const messages = body && typeof body === "object" ? (body as Record<string, unknown>).messages : undefined;
  if (!Array.isArray(messages) || messages.length === 0) return { errors: { messages: ["can't be blank"] } };
  const errors = messages.map((m) => {
    const e: Record<string, string[]> = {};
    const message = (m && typeof m === "object" ? m : {}) as Record<string, unknown>;
    if (typeof message.topic !== "string" || message.topic === "") e.topic = ["can't be blank"];
    if (typeof message.event !== "string" || message.event === "") e.event = ["can't be blank"];
    if (!("payload" in message) || message.payload === null) e.payload = ["can't be blank"];
    if ("private" in message && typeof message.private !== "boolean") e.private = ["is invalid"];
    return e;
  });
  if (errors.some((e) => Object.keys(e).length > 0)) return { errors: { messages: errors } };
  return { messages: messages.map((m) => ({ topic: m.topic, event: m.event, payload: m.payload, private: m.private === true })) };
}

export function createBroadcastApi(adminPool: pg.Pool, hub: TopicHub<Channel>, log: (line: string) => void) {
  function deliver(topic: string, isPrivate: boolean, event: string, payload: unknown, binary?: Buffer): void {
    for (const member of hub.members(tenantTopicOf(topic, isPrivate))) {
      if (binary) {
        const broadcast: UserBroadcast = { event, encoding: "binary", bytes: binary };
        member.receiveUserBroadcast(broadcast);
      } else member.receiveBroadcast({ type: "broadcast", event, payload });
    }
  }

  async function canWrite(claims: Claims, topic: string): Promise<boolean> {
    try {
      return (await writePolicies(adminPool, topic, claims)).broadcast;
    } catch (error) {
      log(`[realtime] broadcast authorization on ${topic} failed: ${(error as Error).message}`);
      return false;
    }
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, pathname: string, bearer: string | undefined): Promise<void> {
    if (req.method !== "POST") return sendJson(res, 404, { message: "Not Found" });
    const token = checkAccessToken(bearer ?? "");
    if (!token.ok) return sendJson(res, 401, { message: token.message });
    const body = await readBody(req);
    if (!body) return sendJson(res, 413, { message: "Payload too large" });
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(pathname);
    const isBinary = /^application\/octet-stream/i.test(String(req.headers["content-type"] ?? ""));

    if (single) {
      const topic = decodeURIComponent(single[1]);
      const event = decodeURIComponent(single[2]);
      const isPrivate = new URL(req.url ?? "/", "http://x").searchParams.get("private") === "true";
      let payload: unknown;
      if (!isBinary) {
        try {
          payload = JSON.parse(body.toString("utf8") || "null");
        } catch {
          return sendJson(res, 400, { message: "Invalid JSON body" });
        }
        if (payload === null) return sendJson(res, 422, { errors: { payload: ["can't be blank"] } });
      }
      if (isPrivate && !(await canWrite(token.claims, topic))) return sendJson(res, 403, { message: "Unauthorized" });
      deliver(topic, isPrivate, event, payload, isBinary ? body : undefined);
      res.writeHead(202, { "Content-Length": 0 });
      return void res.end();
    }

    if (pathname !== "/api/broadcast") return sendJson(res, 404, { message: "Not Found" });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return sendJson(res, 400, { message: "Invalid JSON body" });
    }
    const batch = validateBatch(parsed);
    if ("errors" in batch) return sendJson(res, 422, batch);
    const allowed = new Map<string, Promise<boolean>>();
    for (const message of batch.messages) {
      if (message.private) {
        if (!allowed.has(message.topic)) allowed.set(message.topic, canWrite(token.claims, message.topic));
        if (!(await allowed.get(message.topic))) continue;
      }
      deliver(message.topic, message.private, message.event, message.payload);
    }
    res.writeHead(202, { "Content-Length": 0 });
    res.end();
  };
}
