import type { IncomingMessage, ServerResponse } from "node:http";
import { type Inbox, type InboxMessage } from "./store.ts";

// Mailpit's REST API (the subset the Supabase CLI's inbox users rely on): list, read, search and
// delete captured messages, with Mailpit's field names.

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) });
  res.end(payload);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function size(message: InboxMessage): number {
  return Buffer.byteLength(message.HTML) + Buffer.byteLength(message.Subject) + 400;
}

function summary(message: InboxMessage) {
  return {
    ID: message.ID,
    MessageID: message.MessageID,
    Read: message.Read,
    From: message.From,
    To: message.To,
    Cc: [],
    Bcc: [],
    ReplyTo: [],
    Subject: message.Subject,
    Created: message.Created,
    Username: "",
    Tags: [],
    Size: size(message),
    Attachments: 0,
    Snippet: message.Text.replace(/\s+/g, " ").trim().slice(0, 250),
  };
}

function detail(message: InboxMessage) {
  return {
    ID: message.ID,
    MessageID: message.MessageID,
    From: message.From,
    To: message.To,
    Cc: [],
    Bcc: [],
    ReplyTo: [],
    ReturnPath: message.From.Address,
    Subject: message.Subject,
    ListUnsubscribe: { Header: "", Links: [], Errors: "", HeaderPost: "" },
    Date: message.Created,
    Tags: [],
    Username: "",
    Text: message.Text,
    HTML: message.HTML,
    Size: size(message),
    Inline: [],
    Attachments: [],
  };
}

/** Mailpit's search terms: to:, from:, subject:, is:read / is:unread, and free text; quotes group words. */
export function matchesQuery(message: InboxMessage, query: string): boolean {
  const terms = [...query.matchAll(/(-?)(?:(\w+):)?(?:"([^"]*)"|(\S+))/g)];
  return terms.every(([, negate, field, quoted, bare]) => {
    const value = (quoted ?? bare ?? "").toLowerCase();
    const addresses = (list: { Name: string; Address: string }[]) =>
      list.some((a) => `${a.Name} <${a.Address}>`.toLowerCase().includes(value));
    let hit: boolean;
    switch (field?.toLowerCase()) {
      case "to":
        hit = addresses(message.To);
        break;
      case "from":
        hit = addresses([message.From]);
        break;
      case "subject":
        hit = message.Subject.toLowerCase().includes(value);
        break;
      case "is":
        hit = value === "read" ? message.Read : value === "unread" ? !message.Read : false;
        break;
      default: {
        const haystack = [message.Subject, message.Text, message.From.Address, ...message.To.map((a) => a.Address)]
          .join("\n")
          .toLowerCase();
        hit = haystack.includes(field ? `${field.toLowerCase()}:${value}` : value);
      }
    }
    return negate ? !hit : hit;
  });
}

function page(messages: InboxMessage[], all: InboxMessage[], url: URL) {
  const start = Math.max(0, Number.parseInt(url.searchParams.get("start") ?? "0", 10) || 0);
  const limit = Math.max(1, Number.parseInt(url.searchParams.get("limit") ?? "50", 10) || 50);
  const slice = messages.slice(start, start + limit);
  return {
    total: all.length,
    unread: all.filter((m) => !m.Read).length,
    count: slice.length,
    messages_count: messages.length,
    messages_unread: messages.filter((m) => !m.Read).length,
    start,
    tags: [],
    messages: slice.map(summary),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).length;
    if (total > 1024 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const idList = (value: unknown) => (Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined);

export function createInboxHandler(inbox: Inbox) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      // The target is always a path: `//%%` must not be read as a (malformed) authority.
      const target = req.url ?? "/";
      const url = new URL(`http://127.0.0.1${target.startsWith("/") ? target : `/${target}`}`);
      const method = req.method ?? "GET";
      const path = url.pathname.replace(/\/+$/, "");
      if (path === "/api/v1/messages") {
        if (method === "GET") return sendJson(res, 200, page(inbox.all(), inbox.all(), url));
        const body = await readJson(req);
        if (!body) return sendText(res, 400, "invalid JSON body");
        const ids = idList(body.IDs ?? body.ids);
        if (method === "DELETE") {
          inbox.delete(ids && ids.length ? ids : undefined);
          return sendText(res, 200, "ok");
        }
        if (method === "PUT") {
          const read = body.Read === true;
          for (const message of inbox.all()) if (!ids?.length || ids.includes(message.ID)) message.Read = read;
          return sendText(res, 200, "ok");
        }
        return sendText(res, 405, "method not allowed");
      }
      if (path === "/api/v1/search") {
        const query = url.searchParams.get("query") ?? "";
        if (!query.trim()) return sendText(res, 400, "no search query");
        const found = inbox.all().filter((m) => matchesQuery(m, query));
        if (method === "GET") return sendJson(res, 200, page(found, inbox.all(), url));
        if (method === "DELETE") {
          inbox.delete(found.map((m) => m.ID));
          return sendText(res, 200, "ok");
        }
        return sendText(res, 405, "method not allowed");
      }
      const one = /^\/api\/v1\/message\/([^/]+)$/.exec(path);
      if (one && method === "GET") {
        const id = decodeURIComponent(one[1]);
        const message = id === "latest" ? inbox.all()[0] : inbox.get(id);
        if (!message) return sendText(res, 404, "message not found");
        message.Read = true;
        return sendJson(res, 200, detail(message));
      }
      if (path === "/api/v1/info" && method === "GET") {
        return sendJson(res, 200, {
          Version: "v1.21.0 (stack)",
          LatestVersion: "",
          Database: "memory",
          DatabaseSize: 0,
          Messages: inbox.all().length,
          Unread: inbox.all().filter((m) => !m.Read).length,
          Tags: {},
        });
      }
      return sendText(res, 404, "404 page not found");
    } catch (error) {
      console.error("[inbox]", error);
      if (!res.headersSent) sendText(res, 500, "internal error");
      else res.end();
    }
  };
}
