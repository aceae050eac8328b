// A small reader (and writer) of Internet messages, enough for what the inbox shows: header fields
// (RFC 5322, unfolded), encoded-words (RFC 2047), address lists with groups and quoted names, and
// the first text/plain and text/html parts of a MIME tree (RFC 2045/2046: multipart/*, nested;
// quoted-printable, base64, 7bit/8bit/binary; any charset TextDecoder knows, UTF-8 otherwise).
// Bytes are carried as latin1 strings (one char per byte) until a part's charset decodes them.
import { createHash } from "node:crypto";

export interface Address {
  Name: string;
  Address: string;
}

export interface HeaderField {
  Name: string;
  /** Unfolded, as sent: encoded-words are kept. */
  Value: string;
}

/** A part that is not the message's text or HTML, described as Mailpit lists it (its bytes stay in the source). */
export interface Attachment {
  /** Where it sits in the MIME tree: "1", "1.2", … ("0" for a single-part message). */
  PartID: string;
  FileName: string;
  ContentType: string;
  ContentID: string;
  Size: number;
  Checksums: { MD5: string; SHA1: string; SHA256: string };
}

export interface ParsedMessage {
  headers: HeaderField[];
  from: Address | null;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  replyTo: Address[];
  subject: string;
  messageId: string;
  returnPath: string;
  date: Date | undefined;
  text: string | undefined;
  html: string | undefined;
  /** Parts with Content-Disposition: attachment. */
  attachments: Attachment[];
  /** Other parts that have a file name or a Content-ID (inline images and such). */
  inline: Attachment[];
}

/** Nested multiparts deeper than this are not looked into (a hostile message cannot recurse us away). */
const maxDepth = 20;

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? "utf-8").trim().toLowerCase();
  try {
    return new TextDecoder(label === "us-ascii" || label === "ascii" ? "utf-8" : label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** One byte per char → bytes. */
const bytesOf = (latin1: string) => Buffer.from(latin1, "latin1");

function decodeQuotedPrintable(latin1: string): Buffer {
  const text = latin1.replace(/[ \t]+(?=\r?\n)/g, "").replace(/=\r?\n/g, "");
  return bytesOf(text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
}

function decodeTransfer(latin1: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case "base64":
      return Buffer.from(latin1.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
    case "quoted-printable":
      return decodeQuotedPrintable(latin1);
    default:
      return bytesOf(latin1);
  }
}

/** RFC 2047 encoded-words (B and Q, any charset); whitespace between two adjacent words goes. */
export function decodeEncodedWords(text: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  return text
    .replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, "$1")
    .replace(word, (whole, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : decodeQuotedPrintable(data.replace(/_/g, " ").replace(/=(?![0-9A-Fa-f]{2})/g, "=3D"));
      return decodeCharset(bytes, charset.split("*")[0]);
    });
}

/** Splits a message (or a part) at its first empty line. Header lines that are not fields are skipped. */
export function splitMessage(latin1: string): { headers: HeaderField[]; body: string } {
  const end = /\r?\n\r?\n/.exec(latin1);
  const head = latin1.startsWith("\r\n") || latin1.startsWith("\n") ? "" : end ? latin1.slice(0, end.index) : latin1;
  const body = end
    ? latin1.slice(end.index + end[0].length)
    : latin1.startsWith("\n") || latin1.startsWith("\r\n")
      ? latin1.replace(/^\r?\n/, "")
      : "";
  const headers: HeaderField[] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length) {
      const last = headers[headers.length - 1];
      const more = line.trim();
      if (more) last.Value = last.Value ? `${last.Value} ${more}` : more;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    // Header fields may carry raw UTF-8 (RFC 6532, SMTPUTF8).
    headers.push({ Name: line.slice(0, colon).trim(), Value: bytesOf(line.slice(colon + 1).trim()).toString("utf8") });
  }
  return { headers, body };
}

export function headerValue(headers: HeaderField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.Name.toLowerCase() === lower)?.Value;
}

/** Go's textproto.CanonicalMIMEHeaderKey: the key Mailpit's header map uses. */
export function canonicalHeaderKey(name: string): string {
  if (!/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * A header parameter list: `value; key=val; key="quoted val"`, with RFC 2231's extended and
 * continued values (`filename*=UTF-8''na%C3%AFve.txt`, `name*0=…; name*1=…`) joined and decoded.
 */
function parameters(value: string): { value: string; params: Map<string, string> } {
  const [first, ...rest] = value.match(/(?:[^;"]|"(?:[^"\\]|\\.)*")+/g) ?? [""];
  const params = new Map<string, string>();
  const sections = new Map<string, { index: number; text: string; encoded: boolean }[]>();
  for (const item of rest) {
    const eq = item.indexOf("=");
    if (eq < 0) continue;
    const key = item.slice(0, eq).trim().toLowerCase();
    const raw = item.slice(eq + 1).trim();
    const text = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    const extended = /^([^*]+)\*(?:(\d+)\*?)?$/.exec(key);
    if (!extended) {
      params.set(key, text);
      continue;
    }
    const list = sections.get(extended[1]) ?? [];
    list.push({ index: Number(extended[2] ?? 0), text, encoded: key.endsWith("*") });
    sections.set(extended[1], list);
  }
  for (const [key, list] of sections) {
    list.sort((a, b) => a.index - b.index);
    let charset = "utf-8";
    const bytes: Buffer[] = [];
    for (const [i, section] of list.entries()) {
      let text = section.text;
      if (section.encoded && i === 0) {
        const parts = /^([^']*)'[^']*'([\s\S]*)$/.exec(text);
        if (parts) [charset, text] = [parts[1] || charset, parts[2]];
      }
      bytes.push(
        section.encoded
          ? bytesOf(text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))))
          : Buffer.from(text, "utf8"),
      );
    }
    params.set(key, decodeCharset(Buffer.concat(bytes), charset));
  }
  return { value: first.trim().toLowerCase(), params };
}

function unquote(text: string): string {
  return text.replace(/"((?:[^"\\]|\\.)*)"/g, (_, inner: string) => inner.replace(/\\(.)/g, "$1"));
}

function mailbox(text: string): Address | undefined {
  const angle = /^([\s\S]*?)<([^<>]*)>\s*(?:\([\s\S]*\))?\s*$/.exec(text);
  if (angle) {
    const name = decodeEncodedWords(unquote(angle[1].replace(/\([^()]*\)/g, "").trim()));
    return { Name: name.trim(), Address: angle[2].trim() };
  }
  const comment = /\(([^()]*)\)/.exec(text);
  const address = text.replace(/\([^()]*\)/g, "").trim();
  if (!address) return undefined;
  return { Name: comment ? decodeEncodedWords(comment[1].trim()) : "", Address: address };
}

/** An address-list header (RFC 5322 §3.4): mailboxes and groups, quoted names, comments, encoded-words. */
export function parseAddressList(value: string | undefined): Address[] {
  if (!value) return [];
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let comment = 0;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted || comment) {
      current += c;
      if (c === "\\" && i + 1 < value.length) current += value[++i];
      else if (quoted && c === '"') quoted = false;
      else if (comment && c === "(") comment++;
      else if (comment && c === ")") comment--;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "(") comment = 1;
    else if (c === "<") angle = true;
    else if (c === ">") angle = false;
    else if (!angle && c === ":") {
      current = ""; // a group's display name
      continue;
    } else if (!angle && (c === "," || c === ";")) {
      items.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  items.push(current);
  return items.map((item) => item.trim()).flatMap((item) => (item ? (mailbox(item) ?? []) : []));
}

interface Bodies {
  text?: string;
  html?: string;
  attachments: Attachment[];
  inline: Attachment[];
}

function describe(partId: string, type: string, headers: HeaderField[], fileName: string, content: Buffer): Attachment {
  const contentId = (headerValue(headers, "Content-ID") ?? "").replace(/^<|>$/g, "");
  const hash = (algorithm: string) => createHash(algorithm).update(content).digest("hex");
  return {
    PartID: partId,
    FileName: fileName || contentId,
    ContentType: type,
    ContentID: contentId,
    Size: content.length,
    Checksums: { MD5: hash("md5"), SHA1: hash("sha1"), SHA256: hash("sha256") },
  };
}

function walk(headers: HeaderField[], body: string, found: Bodies, depth: number, partId = "0"): void {
  const type = parameters(headerValue(headers, "Content-Type") ?? "text/plain; charset=us-ascii");
  const disposition = parameters(headerValue(headers, "Content-Disposition") ?? "");
  if (type.value.startsWith("multipart/")) {
    const boundary = type.params.get("boundary");
    if (!boundary || depth >= maxDepth) return;
    const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const delimiter = new RegExp(`(?:^|\\r?\\n)--${escaped}(--)?[ \\t]*(?=\\r?\\n|$)`, "g");
    const marks = [...body.matchAll(delimiter)];
    for (let i = 0; i < marks.length; i++) {
      if (marks[i][1]) break; // the close delimiter
      const start = (marks[i].index ?? 0) + marks[i][0].length;
      const end = i + 1 < marks.length ? (marks[i + 1].index ?? body.length) : body.length;
      const part = splitMessage(body.slice(start, end).replace(/^\r?\n/, ""));
      walk(part.headers, part.body, found, depth + 1, partId === "0" ? String(i + 1) : `${partId}.${i + 1}`);
    }
    return;
  }
  const bytes = decodeTransfer(body, headerValue(headers, "Content-Transfer-Encoding") ?? "7bit");
  const fileName = decodeEncodedWords(disposition.params.get("filename") ?? type.params.get("name") ?? "");
  if (disposition.value === "attachment") {
    found.attachments.push(describe(partId, type.value, headers, fileName, bytes));
    return;
  }
  const key = type.value === "text/plain" ? "text" : type.value === "text/html" ? "html" : undefined;
  if (key && found[key] === undefined && !fileName) {
    found[key] = decodeCharset(bytes, type.params.get("charset"));
    return;
  }
  const described = describe(partId, type.value, headers, fileName, bytes);
  if (described.FileName) found.inline.push(described);
}

function parseDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value.replace(/\([^()]*\)/g, "").trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Reads a whole message (its bytes). */
export function parseMessage(raw: Buffer): ParsedMessage {
  const { headers, body } = splitMessage(raw.toString("latin1"));
  const found: Bodies = { attachments: [], inline: [] };
  walk(headers, body, found, 0);
  const from = parseAddressList(headerValue(headers, "From"))[0];
  const fromHeader = headerValue(headers, "From");
  return {
    headers,
    from: from ?? (fromHeader ? { Name: decodeEncodedWords(fromHeader), Address: "" } : null),
    to: parseAddressList(headerValue(headers, "To")),
    cc: parseAddressList(headerValue(headers, "Cc")),
    bcc: parseAddressList(headerValue(headers, "Bcc")),
    replyTo: parseAddressList(headerValue(headers, "Reply-To")),
    subject: decodeEncodedWords(headerValue(headers, "Subject") ?? ""),
    messageId: (headerValue(headers, "Message-ID") ?? "").replace(/^<|>$/g, ""),
    returnPath: (headerValue(headers, "Return-Path") ?? "").replace(/^<|>$/g, ""),
    date: parseDate(headerValue(headers, "Date")),
    text: found.text,
    html: found.html,
    attachments: found.attachments,
    inline: found.inline,
  };
}

// Writing, for the emails the stack's own Auth service sends.

function encodeQuotedPrintable(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return lines
    .map((line) => {
      let encoded = "";
      for (const byte of Buffer.from(line, "utf8")) {
        const c = String.fromCharCode(byte);
        encoded +=
          (byte >= 33 && byte <= 126 && c !== "=") || c === " " || c === "\t" ? c : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
      encoded = encoded.replace(/[ \t]$/, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
      const out: string[] = [];
      while (encoded.length > 76) {
        let cut = 75;
        const lastEq = encoded.lastIndexOf("=", cut - 1);
        if (lastEq > cut - 3) cut = lastEq; // never split an =XX escape
        out.push(`${encoded.slice(0, cut)}=`);
        encoded = encoded.slice(cut);
      }
      out.push(encoded);
      return out.join("\r\n");
    })
    .join("\r\n");
}

/** A header's text: as is when ASCII, else one UTF-8 B encoded-word per up to 45 bytes. */
function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let chunk = "";
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

function formatAddress(address: Address): string {
  if (!address.Name) return `<${address.Address}>`;
  const name = /^[\x20-\x7e]*$/.test(address.Name) ? `"${address.Name.replace(/(["\\])/g, "\\$1")}"` : encodeHeaderText(address.Name);
  return `${name} <${address.Address}>`;
}

export interface Composed {
  from: Address;
  to: Address[];
  subject: string;
  html: string;
  messageId: string;
  date: Date;
}

/** An HTML-only message as a mail library would put it on the wire (quoted-printable, UTF-8). */
export function composeMessage(mail: Composed): Buffer {
  const lines = [
    `Message-ID: <${mail.messageId}>`,
    `Date: ${mail.date.toUTCString().replace("GMT", "+0000")}`,
    `From: ${formatAddress(mail.from)}`,
    `To: ${mail.to.map(formatAddress).join(", ")}`,
    `Subject: ${encodeHeaderText(mail.subject)}`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=UTF-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    encodeQuotedPrintable(mail.html),
  ];
  return Buffer.from(lines.join("\r\n"), "latin1");
}
