import type { IncomingMessage, ServerResponse } from "node:http";
import { canonicalHeaderKey, headerValue } from "./mime.ts";
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

const size = (message: InboxMessage) => message.Raw.length;

/**
 * Mailpit's List-Unsubscribe check (internal/tools/listunsubscribeparser.go): the links of a
 * List-Unsubscribe header (RFC 2369, at most one mailto: and one http(s) link, each in <>,
 * comma-separated, comments allowed) and what is wrong with it, in Mailpit's words.
 */
export function parseListUnsubscribe(header: string): { links: string[]; errors: string } {
  let value = header.trim();
  for (const comment of value.match(/\([\s\S]*?\)/g) ?? []) value = value.replaceAll(comment, "").trim();
  if (!/<[^\n]*?>/.test(value)) return { links: [], errors: `"${value}" no valid unsubscribe links found` };
  if (!/^<[\s\S]*?>$/m.test(value)) return { links: [], errors: `"${value}" should be enclosed in <>` };
  const matches = [...value.matchAll(/<([^\n]*?)>/g)].map((m) => m[1]);
  const errors: string[] = [];
  const links: string[] = [];
  if (matches.length > 2) {
    errors.push(`"${value}" should include a maximum of one email and one HTTP link`);
  } else {
    for (const join of value.matchAll(/>([\s\S]*?)</g)) {
      if (!/^\s*,\s*$/.test(join[1])) return { links: [], errors: `"${value}" <> should be split with a comma and optional spaces` };
    }
    let mailto = false;
    let http = false;
    for (const link of matches) {
      if (/\s/.test(link)) {
        errors.push(`"${link}" should not contain spaces`);
        continue;
      }
      if (/^mailto:[a-zA-Z0-9]/.test(link)) {
        if (mailto) {
          errors.push(`"${link}" should only contain one mailto:`);
          continue;
        }
        mailto = true;
      } else if (/^https?:\/\/[a-zA-Z0-9]/i.test(link)) {
        if (http) {
          errors.push(`"${link}" should only contain one HTTP link`);
          continue;
        }
        http = true;
      } else {
        errors.push(`"${link}" should start with either http(s):// or mailto:`);
        continue;
      }
      // Go's url.ParseRequestURI refuses what the WHATWG parser would repair (a backslash, a bad escape).
      if (!URL.canParse(link) || /[\\]|%(?![0-9A-Fa-f]{2})/.test(link)) {
        errors.push(`parse "${link}": invalid URI`);
        continue;
      }
      links.push(link);
    }
  }
  return { links, errors: errors.join(", ") };
}

function listUnsubscribe(message: InboxMessage) {
  const header = headerValue(message.Headers, "List-Unsubscribe") ?? "";
  if (!header) return { Header: "", Links: [], Errors: "", HeaderPost: "" };
  const { links, errors } = parseListUnsubscribe(header);
  return { Header: header, Links: links, Errors: errors, HeaderPost: headerValue(message.Headers, "List-Unsubscribe-Post") ?? "" };
}

/** Mailpit's `/headers`: every field under Go's canonical key, values in order, keys sorted. */
function headerMap(message: InboxMessage): Record<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { Name, Value } of message.Headers) {
    const key = canonicalHeaderKey(Name);
    map.set(key, [...(map.get(key) ?? []), Value]);
  }
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function summary(message: InboxMessage) {
  return {
    ID: message.ID,
    MessageID: message.MessageID,
    Read: message.Read,
    From: message.From,
    To: message.To,
    Cc: message.Cc,
    Bcc: message.Bcc,
    ReplyTo: message.ReplyTo,
    Subject: message.Subject,
    Created: message.Created,
    Username: message.Username,
    Tags: [],
    Size: size(message),
    Attachments: message.Attachments.length,
    Snippet: message.Text.replace(/\s+/g, " ").trim().slice(0, 250),
  };
}

function detail(message: InboxMessage) {
  return {
    ID: message.ID,
    MessageID: message.MessageID,
    From: message.From,
    To: message.To,
    Cc: message.Cc,
    Bcc: message.Bcc,
    ReplyTo: message.ReplyTo,
    ReturnPath: message.ReturnPath,
    Subject: message.Subject,
    ListUnsubscribe: listUnsubscribe(message),
    Date: message.Date,
    Tags: [],
    Username: message.Username,
    Text: message.Text,
    HTML: message.HTML,
    Size: size(message),
    Inline: message.Inline,
    Attachments: message.Attachments,
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
        hit = addresses(message.From ? [message.From] : []);
        break;
      case "subject":
        hit = message.Subject.toLowerCase().includes(value);
        break;
      case "is":
        hit = value === "read" ? message.Read : value === "unread" ? !message.Read : false;
        break;
      default: {
        const haystack = [message.Subject, message.Text, message.From?.Address ?? "", ...message.To.map((a) => a.Address)]
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
      const one = /^\/api\/v1\/message\/([^/]+)(?:\/(headers|raw))?$/.exec(path);
      if (one && method === "GET") {
        const id = decodeURIComponent(one[1]);
        const message = id === "latest" ? inbox.all()[0] : inbox.get(id);
        if (!message) return sendText(res, 404, "message not found");
        if (one[2] === "headers") return sendJson(res, 200, headerMap(message));
        if (one[2] === "raw") {
          const headers: Record<string, string | number> = {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": message.Raw.length,
          };
          if (url.searchParams.get("dl") === "1") headers["Content-Disposition"] = `attachment; filename="${message.ID}.eml"`;
          res.writeHead(200, headers);
          res.end(message.Raw);
          return;
        }
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
