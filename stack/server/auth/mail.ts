import type { Inbox } from "../inbox/store.ts";
import { tooManyRequests } from "./errors.ts";
import type { EmailKind, AuthSettings } from "./settings.ts";
import { WindowLimiter } from "./rate-limit.ts";

export interface TemplateData {
  ConfirmationURL: string;
  Token: string;
  TokenHash: string;
  SiteURL: string;
  RedirectTo: string;
  Email: string;
  NewEmail: string;
  Data: Record<string, unknown>;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"'+]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;", "+": "&#43;" })[c]!);

const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * Go's html/template URL processing, byte by byte: `normalize` (a URL's start and path) keeps
 * RFC 3986's reserved characters and valid escapes; the escaper (after `?` or `#`, a query value)
 * encodes everything but unreserved characters. Both write lower-case hex, as Go does.
 */
function processUrl(value: string, normalize: boolean): string {
  let out = "";
  const bytes = new TextEncoder().encode(value);
  for (let i = 0; i < bytes.length; i++) {
    const c = String.fromCharCode(bytes[i]);
    const keep =
      /[A-Za-z0-9\-._~]/.test(c) ||
      (normalize && "!#$&*+,/:;=?@[]".includes(c)) ||
      (normalize && c === "%" && isHex(String.fromCharCode(bytes[i + 1])) && isHex(String.fromCharCode(bytes[i + 2])));
    out += keep ? c : `%${bytes[i].toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** Go's urlFilter: a URL at the start of an attribute must be http(s), mailto or relative. */
function filterUrl(value: string): string {
  const scheme = /^([^:/?#]*):/.exec(value)?.[1];
  return scheme === undefined || /^(https?|mailto)$/i.test(scheme) ? value : "#ZgotmplZ";
}

// Attributes html/template treats as URLs (its attrType table and name heuristics).
const urlAttributes = new Set([
  "href",
  "src",
  "action",
  "formaction",
  "cite",
  "poster",
  "background",
  "codebase",
  "longdesc",
  "usemap",
  "icon",
  "manifest",
  "profile",
  "classid",
  "data",
]);
const isUrlAttribute = (name: string) => urlAttributes.has(name) || /url|uri|src/.test(name);

type Position = { kind: "text" } | { kind: "attribute" } | { kind: "url"; part: "start" | "path" | "query" };

/**
 * Where an action at `at` sits, judged as html/template does from the template's own text: in text,
 * in a plain attribute, or in a URL attribute before anything / in its path / after `?` or `#`.
 */
function positionOf(template: string, at: number): Position {
  const tagStart = template.lastIndexOf("<", at);
  if (tagStart <= template.lastIndexOf(">", at)) return { kind: "text" };
  const tag = template.slice(tagStart, at);
  const attribute = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(["']?)((?:(?!\2).)*)$/s.exec(tag);
  if (!attribute) return { kind: "attribute" };
  const [, name, , valueSoFar] = attribute;
  if (!isUrlAttribute(name.toLowerCase())) return { kind: "attribute" };
  const literal = valueSoFar.replace(/\{\{[\s\S]*?\}\}/g, "");
  if (/[?#]/.test(literal)) return { kind: "url", part: "query" };
  return { kind: "url", part: literal.trim() ? "path" : "start" };
}

function escapeFor(position: Position, text: string): string {
  if (position.kind !== "url") return escapeHtml(text);
  if (position.part === "query") return escapeHtml(processUrl(text, false));
  return escapeHtml(processUrl(position.part === "start" ? filterUrl(text) : text, true));
}

/**
 * Renders GoTrue's email templates: `{{ .Name }}` placeholders, escaped by context as Go's
 * html/template escapes them (URL attributes filtered, normalised or query-escaped by where the
 * placeholder sits; other attributes and text HTML-escaped).
 */
export function renderTemplate(template: string, data: TemplateData, html = true): string {
  return template.replace(/\{\{-?\s*\.(\w+)((?:\.\w+)*)\s*-?\}\}/g, (_match, name: string, path: string, offset: number) => {
    let value: unknown = (data as unknown as Record<string, unknown>)[name];
    for (const key of path.split(".").filter(Boolean))
      value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) return "";
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return html ? escapeFor(positionOf(template, offset), text) : text;
  });
}

export interface Email {
  kind: EmailKind;
  to: string;
  data: TemplateData;
}

/** Sends auth emails into the inbox, within [auth.rate_limit].email_sent per hour. */
export class Mailer {
  private readonly limiter: WindowLimiter;
  private readonly settings: AuthSettings;
  private readonly inbox: Inbox;
  constructor(settings: AuthSettings, inbox: Inbox) {
    this.settings = settings;
    this.inbox = inbox;
    this.limiter = new WindowLimiter(settings.rateLimit.emailSent, 3600);
  }

  /** Throws over_email_send_rate_limit before anything is written when the hourly budget is spent. */
  reserve(count = 1): void {
    if (!this.limiter.take("email", count)) throw tooManyRequests("over_email_send_rate_limit", "email rate limit exceeded");
  }

  send(email: Email): void {
    const template = this.settings.templates[email.kind];
    this.inbox.add({
      from: { Name: this.settings.sender.name, Address: this.settings.sender.address },
      to: [{ Name: "", Address: email.to }],
      subject: renderTemplate(template.subject, email.data, false),
      html: renderTemplate(template.content, email.data),
    });
  }
}
