// The inbox's SMTP side, as Mailpit's (the `[local_smtp] smtp_port` of `supabase start`): plain
// TCP, no authentication needed, AUTH PLAIN/LOGIN taken with any credentials; every message
// accepted lands in the inbox. The replies are Mailpit's (RFC 5321 codes, RFC 3463 enhanced ones).
// Memory stays bounded whatever a client sends: command lines up to 2,048 bytes, messages up to
// `maxSize` (the rest is read and dropped), 100 recipients, 20 connections at once (so at most
// 20 × maxSize held before the inbox takes them), an idle timeout.
import net from "node:net";
import { type Inbox, mailpitId } from "./store.ts";

export interface SmtpOptions {
  /** The largest message taken, in bytes (advertised as SIZE). */
  maxSize?: number;
  maxRecipients?: number;
  maxConnections?: number;
  /** A connection silent this long is closed with 421. */
  idleTimeoutMs?: number;
  hostname?: string;
  /** Called with each message stored (the server's log line). */
  onMessage?: (summary: string) => void;
}

export const defaultMaxMessageSize = 10 * 1024 * 1024;
/** Mailpit's command-line buffer; RFC 5321 asks servers for at least 512 octets. */
const maxCommandLine = 2048;
const appName = "Mailpit";

type Mode = "command" | "data" | "auth-plain" | "auth-login-user" | "auth-login-password";

const mailFrom = /^FROM: ?<(|[^<>\v]+)>( |$)(.*)?/i;
const rcptTo = /^TO: ?<([^<>\v]+)>( |$)(.*)?/i;
const sizeParam = /(?:^| |,)SIZE=(\S*)/i;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An address as RFC 5321 takes it: local@domain, no spaces, at most 1,024 characters. */
function addressError(address: string): string | undefined {
  if (address === "") return undefined; // the null reverse-path, MAIL FROM:<>
  if (/\s/.test(address) || !/^[^@]+@[^@]+$/.test(address) || address.endsWith(".") || address.startsWith("@"))
    return "553 5.1.3 The address is not a valid RFC 5321 address";
  if (address.length > 1024) return "500 The address is too long";
  return undefined;
}

type Settings = Required<Omit<SmtpOptions, "onMessage">> & Pick<SmtpOptions, "onMessage">;

class Session {
  private mode: Mode = "command";
  private greeted = false;
  private from: string | undefined;
  private recipients: string[] = [];
  private authenticated = false;
  private username = "";
  private loginUser = "";
  private helo = "";
  // the line being read
  private lineParts: Buffer[] = [];
  private lineLength = 0;
  private lineTruncated = false;
  // the message being read (DATA)
  private data: Buffer[] = [];
  private dataLength = 0;
  private dataOverflow = false;
  private closed = false;
  private readonly socket: net.Socket;
  private readonly inbox: Inbox;
  private readonly options: Settings;

  constructor(socket: net.Socket, inbox: Inbox, options: Settings) {
    this.socket = socket;
    this.inbox = inbox;
    this.options = options;
    socket.setTimeout(options.idleTimeoutMs, () => {
      this.reply(`421 4.4.2 ${options.hostname} ${appName} ESMTP Service closing transmission channel after timeout exceeded`);
      this.close();
    });
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", () => this.close());
    socket.on("close", () => {
      this.closed = true;
      this.data = []; // a message cut off mid-DATA is dropped
    });
    this.reply(`220 ${options.hostname} ${appName} ESMTP Service ready`);
  }

  private reply(line: string): void {
    if (!this.closed && !this.socket.destroyed) this.socket.write(`${line}\r\n`);
  }

  private close(): void {
    this.closed = true;
    this.socket.end();
  }

  private resetTransaction(): void {
    this.from = undefined;
    this.recipients = [];
    this.data = [];
    this.dataLength = 0;
    this.dataOverflow = false;
  }

  /** Splits what arrives into lines; each mode bounds how much of a line it keeps. */
  private receive(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && !this.closed) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      this.keep(chunk.subarray(start, end));
      start = end;
      if (newline < 0) break;
      const line = Buffer.concat(this.lineParts, this.lineLength);
      const truncated = this.lineTruncated;
      this.lineParts = [];
      this.lineLength = 0;
      this.lineTruncated = false;
      if (this.mode === "data") this.dataLine(line, truncated);
      else if (truncated) {
        this.mode = "command"; // an AUTH exchange ends there too
        this.reply("500 5.5.2 Line too long");
      } else this.commandLine(line.toString("utf8").trim());
    }
  }

  /** The room a line may take: a command's 2,048 bytes, or in DATA what is left of the size limit. */
  private keep(piece: Buffer): void {
    if (this.lineTruncated) return;
    const room = this.mode === "data" ? (this.dataOverflow ? 3 : this.options.maxSize + 3 - this.dataLength) : maxCommandLine + 2;
    if (this.lineLength + piece.length > room) {
      this.lineTruncated = true;
      this.lineParts = [];
      this.lineLength = 0;
      if (this.mode === "data") this.overflow();
      return;
    }
    this.lineParts.push(piece);
    this.lineLength += piece.length;
  }

  private overflow(): void {
    this.dataOverflow = true;
    this.data = [];
    this.dataLength = 0;
  }

  private dataLine(line: Buffer, truncated: boolean): void {
    if (!truncated && (line.equals(Buffer.from(".\r\n")) || line.equals(Buffer.from(".\n")))) return this.endData();
    if (truncated || this.dataOverflow) return;
    const content = line[0] === 0x2e ? line.subarray(1) : line; // dot-unstuffing (RFC 5321 §4.5.2)
    if (this.dataLength + content.length > this.options.maxSize) return this.overflow();
    this.data.push(content);
    this.dataLength += content.length;
  }

  private endData(): void {
    this.mode = "command";
    if (this.dataOverflow) {
      this.resetTransaction();
      return this.reply(`552 5.3.4 Requested mail action aborted: exceeded storage allocation (${this.options.maxSize})`);
    }
    const body = Buffer.concat(this.data, this.dataLength);
    const from = this.from ?? "";
    const recipients = this.recipients;
    this.resetTransaction();
    if (!/^[^\s:]+:/.test(body.toString("latin1", 0, Math.min(body.length, 1000)))) {
      return this.reply("451 4.3.5 Unable to process mail");
    }
    const remote = this.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1";
    const trace: string[] = [];
    const messageId = /^message-id:\s*<?([^>\r\n]+)/im.exec(headerBlock(body))?.[1];
    const generatedId = messageId ? undefined : `${mailpitId()}@mailpit`;
    if (generatedId) trace.push(`Message-ID: <${generatedId}>`);
    trace.push(`Return-Path: <${from}>`);
    trace.push(
      `Received: from ${this.helo} (unknown [${remote}])`,
      `        by ${this.options.hostname} (${appName}) with SMTP`,
      `        for <${recipients[0]}>; ${smtpDate(new Date())}`,
    );
    const source = Buffer.concat([Buffer.from(`${trace.join("\r\n")}\r\n`, "utf8"), withoutHeader(body, "Return-Path")]);
    try {
      const message = this.inbox.receive(source, this.username);
      this.options.onMessage?.(`${message.ID} from <${from}> to ${recipients.map((r) => `<${r}>`).join(", ")} (${source.length} bytes)`);
      this.reply(`250 2.0.0 Ok: queued as ${message.ID}`);
    } catch (error) {
      console.error("[smtp]", error);
      this.reply("451 4.3.5 Unable to process mail");
    }
  }

  private commandLine(line: string): void {
    if (this.mode === "auth-plain") return this.authPlain(line);
    if (this.mode === "auth-login-user") {
      this.mode = "command";
      if (line === "*") return this.reply("501 5.7.0 Authentication cancelled");
      if (!base64.test(line)) return this.reply("501 5.5.2 Syntax error (unable to decode)");
      return this.loginUsername(line);
    }
    if (this.mode === "auth-login-password") {
      this.mode = "command";
      if (line === "*") return this.reply("501 5.7.0 Authentication cancelled");
      if (!base64.test(line)) return this.reply("501 5.5.2 Syntax error (unable to decode)");
      return this.authenticate(this.loginUser);
    }
    const space = line.indexOf(" ");
    const verb = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const args = space < 0 ? "" : line.slice(space + 1).trim();
    switch (verb) {
      case "HELO":
      case "EHLO":
        this.helo = args;
        this.greeted = true;
        this.resetTransaction();
        if (verb === "HELO") return this.reply(`250 ${this.options.hostname} greets ${args}`);
        return this.reply(
          [
            `250-${this.options.hostname} greets ${args}`,
            `250-SIZE ${this.options.maxSize}`,
            "250-PIPELINING",
            "250-AUTH PLAIN LOGIN",
            "250-ENHANCEDSTATUSCODES",
            "250-8BITMIME",
            "250 SMTPUTF8",
          ].join("\r\n"),
        );
      case "MAIL": {
        if (!this.greeted) return this.reply("503 5.5.1 Bad sequence of commands (HELO/EHLO required before MAIL)");
        if (this.recipients.length) return this.reply("503 5.5.1 Bad sequence of commands (RSET/HELO/EHLO required before MAIL)");
        const match = mailFrom.exec(args);
        if (!match) return this.reply("501 5.5.4 Syntax error in parameters or arguments (invalid FROM parameter)");
        const invalid = addressError(match[1]);
        if (invalid) return this.reply(invalid);
        const size = sizeParam.exec(match[3] ?? "");
        if (size) {
          if (!/^\d+$/.test(size[1])) return this.reply("501 5.5.4 Syntax error in parameters or arguments (invalid SIZE parameter)");
          if (Number(size[1]) > this.options.maxSize)
            return this.reply(`552 5.3.4 Requested mail action aborted: exceeded storage allocation (${this.options.maxSize})`);
        }
        this.resetTransaction();
        this.from = match[1];
        return this.reply("250 2.1.0 Ok");
      }
      case "RCPT": {
        if (this.from === undefined) return this.reply("503 5.5.1 Bad sequence of commands (MAIL required before RCPT)");
        const match = rcptTo.exec(args);
        if (!match) return this.reply("501 5.5.4 Syntax error in parameters or arguments (invalid TO parameter)");
        const invalid = addressError(match[1]);
        if (invalid) return this.reply(invalid);
        if (this.recipients.length >= this.options.maxRecipients) return this.reply("452 4.5.3 Too many recipients");
        this.recipients.push(match[1]);
        return this.reply("250 2.1.5 Ok");
      }
      case "DATA":
        if (this.from === undefined || !this.recipients.length)
          return this.reply("503 5.5.1 Bad sequence of commands (MAIL & RCPT required before DATA)");
        this.mode = "data";
        this.data = [];
        this.dataLength = 0;
        this.dataOverflow = false;
        return this.reply("354 Start mail input; end with <CR><LF>.<CR><LF>");
      case "RSET":
        this.resetTransaction();
        return this.reply("250 2.0.0 Ok");
      case "NOOP":
        return this.reply("250 2.0.0 Ok");
      case "QUIT":
        this.reply(`221 2.0.0 ${this.options.hostname} ${appName} ESMTP Service closing transmission channel`);
        return this.close();
      case "AUTH":
        return this.auth(args);
      case "STARTTLS":
        if (args) return this.reply("501 5.5.2 Syntax error (no parameters allowed)");
        return this.reply("502 5.5.1 Command not implemented");
      case "HELP":
      case "VRFY":
      case "EXPN":
        return this.reply("502 5.5.1 Command not implemented");
      default:
        return this.reply("500 5.5.2 Syntax error, command unrecognized");
    }
  }

  private auth(args: string): void {
    if (this.authenticated) return this.reply("503 5.5.1 Bad sequence of commands (already authenticated for this session)");
    if (this.from !== undefined || this.recipients.length)
      return this.reply("503 5.5.1 Bad sequence of commands (AUTH not permitted during mail transaction)");
    const [mechanism = "", initial = ""] = args.split(/\s+/);
    if (!mechanism) return this.reply("501 5.5.4 Malformed AUTH input (argument required)");
    switch (mechanism.toUpperCase()) {
      case "PLAIN":
        if (initial) return this.authPlain(initial);
        this.mode = "auth-plain";
        return this.reply("334 ");
      case "LOGIN":
        if (initial) {
          if (!base64.test(initial)) return this.reply("501 5.5.2 Syntax error (unable to decode)");
          return this.loginUsername(initial);
        }
        this.mode = "auth-login-user";
        return this.reply(`334 ${Buffer.from("Username:").toString("base64")}`);
      default:
        return this.reply("504 5.5.4 Unrecognized authentication type");
    }
  }

  private loginUsername(encoded: string): void {
    this.loginUser = Buffer.from(encoded, "base64").toString("utf8");
    this.mode = "auth-login-password";
    this.reply(`334 ${Buffer.from("Password:").toString("base64")}`);
  }

  private authPlain(encoded: string): void {
    this.mode = "command";
    if (encoded === "*") return this.reply("501 5.7.0 Authentication cancelled");
    if (!base64.test(encoded)) return this.reply("501 5.5.2 Syntax error (unable to decode)");
    const parts = Buffer.from(encoded, "base64").toString("utf8").split("\0");
    if (parts.length !== 3) return this.reply("501 5.5.2 Syntax error (unable to parse)");
    this.authenticate(parts[1]);
  }

  /** Any user name and password are taken, as Mailpit's --smtp-auth-accept-any. */
  private authenticate(username: string): void {
    this.authenticated = true;
    this.username = username;
    this.reply("235 2.7.0 Authentication successful");
  }
}

function headerBlock(body: Buffer): string {
  const text = body.toString("latin1", 0, Math.min(body.length, 256 * 1024));
  const end = /\r?\n\r?\n/.exec(text);
  return end ? text.slice(0, end.index) : text;
}

/** The message without a header field (and its folded lines), so the server's own can take its place. */
function withoutHeader(body: Buffer, name: string): Buffer {
  const text = body.toString("latin1");
  const end = /\r?\n\r?\n/.exec(text);
  const head = end ? text.slice(0, end.index) : text;
  const lines = head.split(/(?<=\n)/);
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line) && dropping) continue;
    dropping = line.toLowerCase().startsWith(`${name.toLowerCase()}:`);
    if (!dropping) kept.push(line);
  }
  if (kept.length === lines.length) return body;
  return Buffer.concat([Buffer.from(kept.join(""), "latin1"), body.subarray(head.length)]);
}

/** RFC 5322 date, as the Received line carries it: `Fri, 27 Nov 2026 05:10:39 +0000 (UTC)`. */
function smtpDate(date: Date): string {
  return `${date.toUTCString().replace("GMT", "+0000")} (UTC)`.replace(/, 0(\d) /, ", $1 ");
}

/** The SMTP listener; each accepted message goes into `inbox`. Listen on it as on any net.Server. */
export function createSmtpServer(inbox: Inbox, options: SmtpOptions = {}): net.Server {
  const settings = {
    maxSize: options.maxSize ?? defaultMaxMessageSize,
    maxRecipients: options.maxRecipients ?? 100,
    maxConnections: options.maxConnections ?? 20,
    idleTimeoutMs: options.idleTimeoutMs ?? 5 * 60_000,
    hostname: options.hostname ?? "localhost",
    onMessage: options.onMessage,
  };
  const server = net.createServer((socket) => new Session(socket, inbox, settings));
  server.maxConnections = settings.maxConnections;
  return server;
}
