import { randomBytes } from "node:crypto";

export interface Address {
  Name: string;
  Address: string;
}

export interface InboxMessage {
  ID: string;
  MessageID: string;
  From: Address;
  To: Address[];
  Subject: string;
  Created: string;
  HTML: string;
  Text: string;
  Read: boolean;
}

export interface Outgoing {
  from: Address;
  to: Address[];
  subject: string;
  html: string;
}

/** Mailpit keeps the newest 500 messages by default; so does the stack's inbox. */
const maxMessages = 500;
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function mailpitId(): string {
  return [...randomBytes(22)].map((b) => idAlphabet[b % idAlphabet.length]).join("");
}

/** Plain text of an HTML body, for the Text part and the snippet (as Mailpit derives them). */
function htmlToText(html: string): string {
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

  add(mail: Outgoing): InboxMessage {
    const id = mailpitId();
    const message: InboxMessage = {
      ID: id,
      MessageID: `${id}@mail.cuepoint.local`,
      From: mail.from,
      To: mail.to,
      Subject: mail.subject,
      Created: new Date().toISOString(),
      HTML: mail.html,
      Text: htmlToText(mail.html),
      Read: false,
    };
    this.messages.unshift(message);
    if (this.messages.length > maxMessages) this.messages.length = maxMessages;
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
