import { randomBytes } from "node:crypto";
import { type Address, type Attachment, composeMessage, type HeaderField, parseMessage } from "./mime.ts";

export type { Address, Attachment, HeaderField };

export interface InboxMessage {
  ID: string;
  MessageID: string;
  /** null when the message has no From header (as Mailpit answers). */
  From: Address | null;
  To: Address[];
  Cc: Address[];
  Bcc: Address[];
  ReplyTo: Address[];
  ReturnPath: string;
  Subject: string;
  /** When the inbox received it. */
  Created: string;
  /** The Date header, else when it was received. */
  Date: string;
  HTML: string;
  /** The text/plain part; derived from the HTML when there is none. */
  Text: string;
  Read: boolean;
  /** The SMTP AUTH user name it was sent with ("" without AUTH). */
  Username: string;
  /** Parts sent as attachments, and other named parts (inline images …): described, not kept apart. */
  Attachments: Attachment[];
  Inline: Attachment[];
  /** The header fields in order, unfolded, encoded-words kept. */
  Headers: HeaderField[];
  /** The message as received (what `/raw` answers). */
  Raw: Buffer;
}

export interface Outgoing {
  from: Address;
  to: Address[];
  subject: string;
  html: string;
}

/** Mailpit keeps the newest 500 messages by default; so does the stack's inbox. */
const maxMessages = 500;
/** And at most this many bytes of sources in all, so large messages cannot fill the memory. */
const maxTotalBytes = 256 * 1024 * 1024;
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function mailpitId(): string {
  return [...randomBytes(22)].map((b) => idAlphabet[b % idAlphabet.length]).join("");
}

/** Plain text of an HTML body, for the Text part and the snippet (as Mailpit derives them). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/h\d|\/div|\/li)\s*\/?>/gi, "\n")
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, "$2 ($1)")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#43;/g, "+")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The captured emails, newest first, shared by the Auth service (writer) and the inbox API (reader). */
export class Inbox {
  private messages: InboxMessage[] = [];

  /** An email the stack itself sends (Auth's): composed as a mail library would, then stored as received. */
  add(mail: Outgoing): InboxMessage {
    const id = mailpitId();
    const raw = composeMessage({ ...mail, messageId: `${id}@mail.cuepoint.local`, date: new Date() });
    return this.store(id, raw, "");
  }

  /** A message as an SMTP client delivered it (its bytes, after the server's own trace headers). */
  receive(raw: Buffer, username = ""): InboxMessage {
    return this.store(mailpitId(), raw, username);
  }

  private store(id: string, raw: Buffer, username: string): InboxMessage {
    const parsed = parseMessage(raw);
    const received = new Date();
    const html = parsed.html ?? "";
    const message: InboxMessage = {
      ID: id,
      MessageID: parsed.messageId,
      From: parsed.from,
      To: parsed.to,
      Cc: parsed.cc,
      Bcc: parsed.bcc,
      ReplyTo: parsed.replyTo,
      ReturnPath: parsed.returnPath || parsed.from?.Address || "",
      Subject: parsed.subject,
      Created: received.toISOString(),
      Date: (parsed.date ?? received).toISOString(),
      HTML: html,
      Text: parsed.text ?? htmlToText(html),
      Read: false,
      Username: username,
      Attachments: parsed.attachments,
      Inline: parsed.inline,
      Headers: parsed.headers,
      Raw: raw,
    };
    this.messages.unshift(message);
    if (this.messages.length > maxMessages) this.messages.length = maxMessages;
    let total = 0;
    const kept = this.messages.findIndex((m) => (total += m.Raw.length) > maxTotalBytes);
    if (kept > 0) this.messages.length = kept;
    return message;
  }

  all(): InboxMessage[] {
    return this.messages;
  }

  get(id: string): InboxMessage | undefined {
    return this.messages.find((m) => m.ID === id);
  }

  delete(ids?: string[]): void {
    if (!ids) this.messages = [];
    else this.messages = this.messages.filter((m) => !ids.includes(m.ID));
  }
}

export const inbox = new Inbox();
