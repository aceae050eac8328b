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

/** Go's html/template URL normaliser: percent-encodes what may not appear in a URL, keeps the rest. */
function normalizeUrl(value: string): string {
  return value.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c));
}

/** Whether position `at` of the template lies inside a tag (so a value there is an attribute). */
function insideTag(template: string, at: number): boolean {
  return template.lastIndexOf("<", at) > template.lastIndexOf(">", at);
}

/**
 * Renders GoTrue's email templates: `{{ .Name }}` placeholders, escaped by context as Go's
 * html/template escapes them (URLs in attributes normalised, text HTML-escaped).
 */
export function renderTemplate(template: string, data: TemplateData, html = true): string {
  return template.replace(/\{\{-?\s*\.(\w+)((?:\.\w+)*)\s*-?\}\}/g, (_match, name: string, path: string, offset: number) => {
    let value: unknown = (data as unknown as Record<string, unknown>)[name];
    for (const key of path.split(".").filter(Boolean)) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) return "";
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (!html) return text;
    return insideTag(template, offset) ? escapeHtml(normalizeUrl(text)) : escapeHtml(text);
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
