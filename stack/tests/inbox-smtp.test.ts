// The inbox's SMTP side (Mailpit's `[local_smtp] smtp_port`): a real SMTP client (nodemailer)
// and raw SMTP conversations against the running stack's listener, read back through the
// Mailpit API on the inbox port. Every recipient is unique to its test, so parallel suites
// never see each other's messages.
import { createHash } from "node:crypto";
import net from "node:net";
import nodemailer from "nodemailer";
import { describe, expect, test } from "vitest";
import { parseListUnsubscribe } from "../server/inbox/api.ts";
import { decodeEncodedWords, parseAddressList, parseMessage } from "../server/inbox/mime.ts";
import { createSmtpServer, defaultMaxMessageSize } from "../server/inbox/smtp.ts";
import { Inbox } from "../server/inbox/store.ts";
import { config, inboxUrl } from "./helpers/stack.ts";

const smtpPort = config.smtpPort;
const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@smtp.test`;

interface Summary {
  ID: string;
  MessageID: string;
  From: { Name: string; Address: string } | null;
  To: { Name: string; Address: string }[];
  Cc: { Name: string; Address: string }[];
  Subject: string;
  Username: string;
  Size: number;
  Snippet: string;
  Read: boolean;
}

async function search(query: string): Promise<{ messages_count: number; messages: Summary[] }> {
  const response = await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(query)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { messages_count: number; messages: Summary[] };
}

/** One SMTP conversation over a plain socket: replies are read whole (multi-line ones included). */
class RawSmtp {
  private buffered = "";
  private waiting: (() => void) | undefined;
  closed = false;
  private constructor(readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      this.buffered += text;
      this.waiting?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.waiting?.();
    });
    socket.on("error", () => undefined);
  }

  static async open(port = smtpPort): Promise<RawSmtp> {
    const socket = net.connect({ port, host: "127.0.0.1" });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const client = new RawSmtp(socket);
    expect(await client.reply()).toMatch(/^220 .*ESMTP Service ready$/);
    return client;
  }

  /** The next complete reply: lines up to one whose code is followed by a space. */
  async reply(): Promise<string> {
    for (;;) {
      const end = /^\d{3} [^\r\n]*\r\n/m.exec(this.buffered);
      if (end) {
        const reply = this.buffered.slice(0, end.index + end[0].length);
        this.buffered = this.buffered.slice(reply.length);
        return reply.trimEnd();
      }
      if (this.closed) throw new Error(`connection closed; unread: ${JSON.stringify(this.buffered)}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  async command(line: string): Promise<string> {
    this.write(`${line}\r\n`);
    return await this.reply();
  }

  async envelope(from: string, to: string[]): Promise<void> {
    expect(await this.command("EHLO client.test")).toMatch(/^250 /m);
    expect(await this.command(`MAIL FROM:<${from}>`)).toBe("250 2.1.0 Ok");
    for (const rcpt of to) expect(await this.command(`RCPT TO:<${rcpt}>`)).toBe("250 2.1.5 Ok");
  }

  close(): void {
    this.socket.destroy();
  }
}

describe("the inbox's SMTP listener, with a real SMTP client", () => {
  test("a multipart digest with a UTF-8 subject and one-click unsubscribe reads back through Mailpit's API", async () => {
    const to = unique("zoe");
    const second = unique("second");
    const cc = unique("cc");
    const unsubscribe = "<https://cuepoint.test/unsubscribe?token=abc123>, <mailto:unsubscribe@cuepoint.test?subject=unsubscribe>";
    const text = `Hello Zoë,\n\n.a line that starts with a dot\n..and one with two\n${"five new moments ".repeat(8)}\n`;
    const html = `<p>Hello <b>Zoë</b>,</p><p>5 new moments — <a href="https://cuepoint.test/r/1">open the room</a></p>`;
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: smtpPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: "digest-sender", pass: "any password works" },
    });
    const sent = await transport.sendMail({
      from: '"Cuepoint Digest" <digest@cuepoint.test>',
      to: [`"Zoë Ärger" <${to}>`, second],
      cc,
      subject: "Your weekly digest — 5 new moments ✨",
      text,
      html,
      headers: { "List-Unsubscribe": unsubscribe, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    transport.close();
    expect(sent.accepted).toEqual([to, second, cc]);
    expect(sent.rejected).toEqual([]);
    const queued = /^250 2\.0\.0 Ok: queued as ([A-Za-z0-9]{22})$/.exec(sent.response);
    expect(queued, sent.response).not.toBeNull();
    const id = queued![1];

    // the list
    const list = (await (await fetch(`${inboxUrl}/api/v1/messages?limit=500`)).json()) as { messages: Summary[] };
    const summary = list.messages.find((m) => m.ID === id);
    expect(summary).toMatchObject({
      MessageID: sent.messageId.replace(/^<|>$/g, ""),
      Read: false,
      From: { Name: "Cuepoint Digest", Address: "digest@cuepoint.test" },
      To: [
        { Name: "Zoë Ärger", Address: to },
        { Name: "", Address: second },
      ],
      Cc: [{ Name: "", Address: cc }],
      Bcc: [],
      Subject: "Your weekly digest — 5 new moments ✨",
      Username: "digest-sender",
      Snippet: expect.stringMatching(/^Hello Zoë, \.a line that starts with a dot \.\.and one with two five new moments/),
    });

    // the message
    const detail = (await (await fetch(`${inboxUrl}/api/v1/message/${id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({
      ID: id,
      From: { Name: "Cuepoint Digest", Address: "digest@cuepoint.test" },
      ReturnPath: "digest@cuepoint.test",
      Subject: "Your weekly digest — 5 new moments ✨",
      HTML: html,
      Username: "digest-sender",
      ListUnsubscribe: {
        Header: unsubscribe,
        Links: ["https://cuepoint.test/unsubscribe?token=abc123", "mailto:unsubscribe@cuepoint.test?subject=unsubscribe"],
        Errors: "",
        HeaderPost: "List-Unsubscribe=One-Click",
      },
      Size: summary!.Size,
    });
    // the real text part, dots unstuffed (not text derived from the HTML)
    expect((detail.Text as string).replace(/\r\n/g, "\n")).toBe(text);
    expect(Math.abs(Date.parse(detail.Date as string) - Date.now())).toBeLessThan(60_000);

    // its headers, Mailpit's way: canonical keys, sorted, values as sent
    const headersResponse = await fetch(`${inboxUrl}/api/v1/message/${id}/headers`);
    expect(headersResponse.headers.get("content-type")).toBe("application/json");
    const headers = (await headersResponse.json()) as Record<string, string[]>;
    expect(Object.keys(headers)).toEqual([...Object.keys(headers)].sort());
    expect(headers).toMatchObject({
      "List-Unsubscribe": [unsubscribe],
      "List-Unsubscribe-Post": ["List-Unsubscribe=One-Click"],
      "Message-Id": [sent.messageId],
      "Mime-Version": ["1.0"],
      "Return-Path": ["<digest@cuepoint.test>"],
      Received: [expect.stringMatching(/^from \S+ \(unknown \[127\.0\.0\.1\]\) by \S+ \(Mailpit\) with SMTP for <zoe-[^>]+>; /)],
    });
    expect(decodeEncodedWords(headers.Subject[0])).toBe("Your weekly digest — 5 new moments ✨");
    expect(headers.Subject[0]).toMatch(/^=\?UTF-8\?/i); // kept as sent, not decoded

    // its source
    const raw = await fetch(`${inboxUrl}/api/v1/message/${id}/raw`);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const source = Buffer.from(await raw.arrayBuffer());
    expect(source.length).toBe(summary!.Size);
    expect(source.toString("latin1")).toMatch(/^Return-Path: <digest@cuepoint\.test>\r\nReceived: from /);
    expect(source.toString("latin1")).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    expect(source.toString("latin1")).toMatch(/multipart\/alternative/);
    const download = await fetch(`${inboxUrl}/api/v1/message/${id}/raw?dl=1`);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${id}.eml"`);
    await download.arrayBuffer();

    // search by recipient (to: looks at To, so the Cc address finds nothing there)
    const found = await search(`to:${to}`);
    expect(found.messages.map((m) => m.ID)).toEqual([id]);
    expect((await search(`to:${second}`)).messages.map((m) => m.ID)).toEqual([id]);
    expect((await search(`to:${cc}`)).messages_count).toBe(0);
    expect((await search(`to:${to} subject:"weekly digest — 5"`)).messages_count).toBe(1);
    expect((await search(`to:${to} is:read`)).messages_count).toBe(1); // the detail above opened it
    expect((await fetch(`${inboxUrl}/api/v1/message/${id}/nope`)).status).toBe(404);
    expect((await fetch(`${inboxUrl}/api/v1/message/doesnotexist/headers`)).status).toBe(404);
    expect((await fetch(`${inboxUrl}/api/v1/message/doesnotexist/raw`)).status).toBe(404);
  });

  test("a nested multipart/mixed message: base64 HTML, quoted-printable text, encoded-word names, many recipients", async () => {
    const recipients = [unique("one"), unique("two"), unique("three")];
    const client = await RawSmtp.open();
    await client.envelope("", recipients); // the null reverse-path is allowed
    expect(await client.command("DATA")).toBe("354 Start mail input; end with <CR><LF>.<CR><LF>");
    const htmlPart = Buffer.from("<p>Grüße aus dem Raum</p>", "utf8").toString("base64");
    const attachment = "an attachment, not the body";
    client.write(
      [
        "From: =?UTF-8?Q?J=C3=BCrgen_M=C3=BCller?= <jurgen@smtp.test>",
        `To: "Müller, Team" <${recipients[0]}>, Undisclosed: <${recipients[1]}>;`,
        `Cc: ${recipients[2]} (Drei)`,
        "Subject: =?utf-8?B?R3LDvMOfZQ==?= =?utf-8?Q?_aus_dem_Raum?=",
        "Date: Tue, 3 Nov 2026 09:30:00 +0100",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="outer"',
        "",
        "preamble, not shown",
        "--outer",
        "Content-Type: multipart/alternative; boundary=inner",
        "",
        "--inner",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        "Gr=C3=BC=C3=9Fe aus dem Raum, eine sehr lange Zeile die weich umbrochen wird =",
        "und weitergeht",
        "..punkt",
        "--inner",
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        htmlPart,
        "--inner--",
        "--outer",
        'Content-Type: text/plain; name="notes.txt"',
        'Content-Disposition: attachment; filename="notes.txt"',
        "",
        attachment,
        "--outer--",
        ".",
        "",
      ].join("\r\n"),
    );
    const queued = await client.reply();
    expect(queued).toMatch(/^250 2\.0\.0 Ok: queued as [A-Za-z0-9]{22}$/);
    expect(await client.command("QUIT")).toMatch(/^221 2\.0\.0 /);
    client.close();

    const id = queued.split(" ").pop()!;
    const detail = (await (await fetch(`${inboxUrl}/api/v1/message/${id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({
      From: { Name: "Jürgen Müller", Address: "jurgen@smtp.test" },
      To: [
        { Name: "Müller, Team", Address: recipients[0] },
        { Name: "", Address: recipients[1] },
      ],
      Cc: [{ Name: "Drei", Address: recipients[2] }],
      ReturnPath: "jurgen@smtp.test", // MAIL FROM:<> leaves it empty; Mailpit then names the From address
      Subject: "Grüße aus dem Raum",
      Date: "2026-11-03T08:30:00.000Z",
      HTML: "<p>Grüße aus dem Raum</p>",
      Text: "Grüße aus dem Raum, eine sehr lange Zeile die weich umbrochen wird und weitergeht\r\n.punkt",
      ListUnsubscribe: { Header: "", Links: [], Errors: "", HeaderPost: "" },
      Username: "",
      Inline: [],
      Attachments: [
        {
          PartID: "2",
          FileName: "notes.txt",
          ContentType: "text/plain",
          ContentID: "",
          Size: Buffer.byteLength(attachment),
          Checksums: {
            MD5: createHash("md5").update(attachment).digest("hex"),
            SHA1: createHash("sha1").update(attachment).digest("hex"),
            SHA256: createHash("sha256").update(attachment).digest("hex"),
          },
        },
      ],
    });
    expect((await search(`to:${recipients[1]}`)).messages).toMatchObject([{ ID: id, Attachments: 1 }]);
    // no Message-ID was sent: the server gives one, in the source too
    expect(detail.MessageID).toMatch(/^[A-Za-z0-9]{22}@mailpit$/);
    const source = await (await fetch(`${inboxUrl}/api/v1/message/${id}/raw`)).text();
    expect(source.startsWith(`Message-ID: <${detail.MessageID as string}>\r\nReturn-Path: <>\r\n`)).toBe(true);
  });

  test("EHLO advertises Mailpit's extensions; AUTH PLAIN and LOGIN take any credentials; commands may be pipelined", async () => {
    const client = await RawSmtp.open();
    const ehlo = await client.command("EHLO client.test");
    expect(ehlo.split("\r\n")).toEqual([
      expect.stringMatching(/^250-\S+ greets client\.test$/),
      `250-SIZE ${defaultMaxMessageSize}`,
      "250-PIPELINING",
      "250-AUTH PLAIN LOGIN",
      "250-ENHANCEDSTATUSCODES",
      "250-8BITMIME",
      "250 SMTPUTF8",
    ]);
    expect(await client.command("AUTH PLAIN !!!notbase64")).toBe("501 5.5.2 Syntax error (unable to decode)");
    expect(await client.command(`AUTH PLAIN ${Buffer.from("only-one-part").toString("base64")}`)).toBe(
      "501 5.5.2 Syntax error (unable to parse)",
    );
    expect(await client.command("AUTH CRAM-MD5")).toBe("504 5.5.4 Unrecognized authentication type");
    expect(await client.command("AUTH LOGIN")).toBe(`334 ${Buffer.from("Username:").toString("base64")}`);
    expect(await client.command(Buffer.from("login-user").toString("base64"))).toBe(`334 ${Buffer.from("Password:").toString("base64")}`);
    expect(await client.command(Buffer.from("whatever").toString("base64"))).toBe("235 2.7.0 Authentication successful");
    expect(await client.command(`AUTH PLAIN ${Buffer.from("\0a\0b").toString("base64")}`)).toBe(
      "503 5.5.1 Bad sequence of commands (already authenticated for this session)",
    );

    // the whole transaction in one write, replies in order
    const to = unique("pipelined");
    client.write(`MAIL FROM:<pipe@smtp.test> SIZE=200 BODY=8BITMIME\r\nRCPT TO:<${to}>\r\nDATA\r\n`);
    expect(await client.reply()).toBe("250 2.1.0 Ok");
    expect(await client.reply()).toBe("250 2.1.5 Ok");
    expect(await client.reply()).toMatch(/^354 /);
    client.write(`Subject: pipelined\r\nFrom: pipe@smtp.test\r\nTo: ${to}\r\n\r\n8bit body: café\r\n.\r\nNOOP\r\nQUIT\r\n`);
    expect(await client.reply()).toMatch(/^250 2\.0\.0 Ok: queued as /);
    expect(await client.reply()).toBe("250 2.0.0 Ok");
    expect(await client.reply()).toMatch(/^221 /);
    const found = await search(`to:${to}`);
    expect(found.messages).toMatchObject([{ Subject: "pipelined", Username: "login-user", From: { Name: "", Address: "pipe@smtp.test" } }]);
    const detail = (await (await fetch(`${inboxUrl}/api/v1/message/${found.messages[0].ID}`)).json()) as { Text: string; HTML: string };
    expect(detail).toMatchObject({ Text: "8bit body: café\r\n", HTML: "" });
  });
});

describe("the inbox's SMTP listener, with bad input", () => {
  test("out of order commands answer 503 and leave the session usable", async () => {
    const client = await RawSmtp.open();
    expect(await client.command("MAIL FROM:<a@smtp.test>")).toBe("503 5.5.1 Bad sequence of commands (HELO/EHLO required before MAIL)");
    expect(await client.command("HELO client.test")).toMatch(/^250 \S+ greets client\.test$/);
    expect(await client.command("RCPT TO:<b@smtp.test>")).toBe("503 5.5.1 Bad sequence of commands (MAIL required before RCPT)");
    expect(await client.command("DATA")).toBe("503 5.5.1 Bad sequence of commands (MAIL & RCPT required before DATA)");
    expect(await client.command("MAIL FROM:<a@smtp.test>")).toBe("250 2.1.0 Ok");
    expect(await client.command("DATA")).toBe("503 5.5.1 Bad sequence of commands (MAIL & RCPT required before DATA)");
    expect(await client.command("RCPT TO:<b@smtp.test>")).toBe("250 2.1.5 Ok");
    expect(await client.command("MAIL FROM:<c@smtp.test>")).toBe(
      "503 5.5.1 Bad sequence of commands (RSET/HELO/EHLO required before MAIL)",
    );
    expect(await client.command(`AUTH PLAIN ${Buffer.from("\0a\0b").toString("base64")}`)).toBe(
      "503 5.5.1 Bad sequence of commands (AUTH not permitted during mail transaction)",
    );
    expect(await client.command("RSET")).toBe("250 2.0.0 Ok");
    expect(await client.command("DATA")).toBe("503 5.5.1 Bad sequence of commands (MAIL & RCPT required before DATA)");
    expect(await client.command("NOOP")).toBe("250 2.0.0 Ok");
    client.close();
  });

  test("garbage, unsupported commands and bad addresses are refused with 500/501/502/553", async () => {
    const client = await RawSmtp.open();
    expect(await client.command("FROBNICATE now")).toBe("500 5.5.2 Syntax error, command unrecognized");
    expect(await client.command("")).toBe("500 5.5.2 Syntax error, command unrecognized");
    client.write(Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x41, 0x0d, 0x0a]));
    expect(await client.reply()).toBe("500 5.5.2 Syntax error, command unrecognized");
    expect(await client.command("VRFY postmaster")).toBe("502 5.5.1 Command not implemented");
    expect(await client.command("STARTTLS")).toBe("502 5.5.1 Command not implemented");
    expect(await client.command("EHLO client.test")).toMatch(/^250 SMTPUTF8$/m);
    expect(await client.command("MAIL FROM:a@smtp.test")).toBe(
      "501 5.5.4 Syntax error in parameters or arguments (invalid FROM parameter)",
    );
    expect(await client.command("MAIL FROM:<not an address>")).toBe("553 5.1.3 The address is not a valid RFC 5321 address");
    expect(await client.command("MAIL FROM:<a@smtp.test> SIZE=lots")).toBe(
      "501 5.5.4 Syntax error in parameters or arguments (invalid SIZE parameter)",
    );
    expect(await client.command("MAIL FROM:<a@smtp.test>")).toBe("250 2.1.0 Ok");
    expect(await client.command("RCPT TO:<>")).toBe("501 5.5.4 Syntax error in parameters or arguments (invalid TO parameter)");
    expect(await client.command(`RCPT TO:<${"x".repeat(1100)}@smtp.test>`)).toBe("500 The address is too long");
    for (let i = 0; i < 100; i++) client.write(`RCPT TO:<r${i}@smtp.test>\r\n`);
    for (let i = 0; i < 100; i++) expect(await client.reply()).toBe("250 2.1.5 Ok");
    expect(await client.command("RCPT TO:<one-too-many@smtp.test>")).toBe("452 4.5.3 Too many recipients");
    expect(await client.command("QUIT")).toMatch(/^221 /);
    client.close();
  });

  test("a command line over 2,048 bytes is refused whole (500), and the session goes on", async () => {
    const client = await RawSmtp.open();
    // sent in pieces, without a line end until the very last, so it never fits in one read
    for (let i = 0; i < 64; i++) client.write(`NOOP ${"A".repeat(16 * 1024)}`);
    client.write("\r\n");
    expect(await client.reply()).toBe("500 5.5.2 Line too long");
    expect(await client.command("NOOP")).toBe("250 2.0.0 Ok");
    client.close();
  });

  test("a message over the SIZE limit is refused (552) whether announced or not, and nothing is stored", async () => {
    const to = unique("too-big");
    const client = await RawSmtp.open();
    expect(await client.command("EHLO client.test")).toMatch(/^250 /m);
    expect(await client.command(`MAIL FROM:<big@smtp.test> SIZE=${defaultMaxMessageSize + 1}`)).toBe(
      `552 5.3.4 Requested mail action aborted: exceeded storage allocation (${defaultMaxMessageSize})`,
    );
    await client.envelope("big@smtp.test", [to]);
    expect(await client.command("DATA")).toMatch(/^354 /);
    client.write(`Subject: too big\r\nTo: ${to}\r\n\r\n`);
    const line = `${"x".repeat(998)}\r\n`;
    const block = line.repeat(1024); // about 1 MiB
    for (let i = 0; i < 11; i++) client.write(block);
    client.write(".\r\n");
    expect(await client.reply()).toBe(`552 5.3.4 Requested mail action aborted: exceeded storage allocation (${defaultMaxMessageSize})`);
    // one very long line (no line ends at all) is refused the same way
    await client.envelope("big@smtp.test", [to]);
    expect(await client.command("DATA")).toMatch(/^354 /);
    for (let i = 0; i < 11; i++) client.write("y".repeat(1024 * 1024));
    client.write("\r\n.\r\n");
    expect(await client.reply()).toMatch(/^552 5\.3\.4 /);
    // the session still works, and only the message that fits is stored
    await client.envelope("big@smtp.test", [to]);
    expect(await client.command("DATA")).toMatch(/^354 /);
    expect(await client.command(`Subject: fits\r\nTo: ${to}\r\n\r\nsmall\r\n.`)).toMatch(/^250 2\.0\.0 Ok: queued/);
    client.close();
    expect((await search(`to:${to}`)).messages.map((m) => m.Subject)).toEqual(["fits"]);
  });

  test("a client that disconnects mid-DATA leaves no message", async () => {
    const to = unique("cut-off");
    const client = await RawSmtp.open();
    await client.envelope("gone@smtp.test", [to]);
    expect(await client.command("DATA")).toMatch(/^354 /);
    client.write(`Subject: never finished\r\nTo: ${to}\r\n\r\nhalf a message\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await search(`to:${to}`)).messages_count).toBe(0);
    // a message that is not a message (no header) is refused, not stored
    const again = await RawSmtp.open();
    await again.envelope("gone@smtp.test", [to]);
    expect(await again.command("DATA")).toMatch(/^354 /);
    expect(await again.command("just words, no header\r\n.")).toBe("451 4.3.5 Unable to process mail");
    again.close();
    expect((await search(`to:${to}`)).messages_count).toBe(0);
  });
});

describe("a private SMTP listener, for its limits", () => {
  test("a silent connection is closed with 421 after the idle timeout", async () => {
    const server = createSmtpServer(new Inbox(), { idleTimeoutMs: 300 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = await RawSmtp.open((server.address() as net.AddressInfo).port);
      expect(await client.command("EHLO client.test")).toMatch(/^250 /m);
      const began = Date.now();
      expect(await client.reply()).toMatch(/^421 4\.4\.2 .* closing transmission channel after timeout exceeded$/);
      expect(Date.now() - began).toBeGreaterThanOrEqual(250);
      if (!client.closed) await new Promise((resolve) => client.socket.once("close", resolve));
      expect(client.closed).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("reading messages", () => {
  test("Mailpit's List-Unsubscribe check: its own pass and fail cases", () => {
    const pass = [
      "<mailto:unsubscribe@example.com>",
      "<https://example.com>",
      "<HTTPS://EXAMPLE.COM>",
      "<mailto:unsubscribe@example.com>, <http://example.com>",
      "<https://example.com> , \t\t<mailto:unsubscribe@example.com>",
      "<mailto:unsubscribe@example.com>,<https://example.com>",
      "<https://example.com> ,\n\t\t <mailto:unsubscribe@example.com>",
      "<mailto:unsubscribe@example.com?subject=unsubscribe%20me>",
      "(Use this command to get off the list) <mailto:unsubscribe@example.com?subject=unsubscribe%20me>",
      "<mailto:unsubscribe@example.com> (Use this command to get off the list)",
      "(Use this command to get off the list) <mailto:unsubscribe@example.com>, (Click this link to unsubscribe) <http://example.com>",
    ];
    const fail = [
      "mailto:unsubscribe@example.com",
      "<mailto::unsubscribe@example.com>",
      "https://example.com/",
      "mailto:unsubscribe@example.com, <https://example.com/>",
      "<MAILTO:unsubscribe@example.com>",
      "<mailto:unsubscribe@example.com>, <mailto:test2@example.com>",
      "<http://exampl\\e2.com>, <http://example2.com>",
      "<http://example.com>, <mailto:unsubscribe@example.com>, <http://example2.com>",
      "<mailto:unsubscribe@example.com>, <example.com>",
      "<mailto: unsubscribe@example.com>, <unsubscribe@lol.com>",
      "<mailto:unsubscribe@example.com?subject=unsubscribe me>",
      "<http:///example.com>",
    ];
    for (const header of pass) expect(parseListUnsubscribe(header), header).toMatchObject({ errors: "" });
    for (const header of fail) expect(parseListUnsubscribe(header).errors, header).not.toBe("");
    expect(parseListUnsubscribe("<mailto:a@example.com>, <mailto:b@example.com>")).toEqual({
      links: ["mailto:a@example.com"],
      errors: '"mailto:b@example.com" should only contain one mailto:',
    });
    expect(parseListUnsubscribe("https://example.com/")).toEqual({
      links: [],
      errors: '"https://example.com/" no valid unsubscribe links found',
    });
  });

  test("addresses, encoded-words and bodies without a text part", () => {
    expect(parseAddressList('"Doe, Jane" <jane@x.test>, bob@x.test (Bob B), =?ISO-8859-1?Q?Andr=E9?= <andre@x.test>')).toEqual([
      { Name: "Doe, Jane", Address: "jane@x.test" },
      { Name: "Bob B", Address: "bob@x.test" },
      { Name: "André", Address: "andre@x.test" },
    ]);
    expect(parseAddressList("undisclosed-recipients:;")).toEqual([]);
    expect(decodeEncodedWords("=?UTF-8?Q?a_b?= =?UTF-8?Q?_c?= plain =?bogus-charset?Q?d?=")).toBe("a b c plain d");
    const htmlOnly = parseMessage(
      Buffer.from(
        "From: x@y.test\r\nContent-Type: text/html; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>caf=E9</p>",
      ),
    );
    expect(htmlOnly).toMatchObject({ html: "<p>café</p>", text: undefined, from: { Name: "", Address: "x@y.test" } });
    expect(parseMessage(Buffer.from("Subject: no from\r\n\r\nbody")).from).toBeNull();
    const related = parseMessage(
      Buffer.from(
        [
          'Content-Type: multipart/related; boundary="r"',
          "",
          "--r",
          "Content-Type: text/html",
          "",
          '<img src="cid:logo@x">',
          "--r",
          "Content-Type: application/pdf",
          "Content-Disposition: attachment; filename*0*=UTF-8''R%C3%A9sum; filename*1*=%C3%A9.pdf",
          "",
          "pdf",
          "--r",
          "Content-Type: image/png",
          "Content-ID: <logo@x>",
          "Content-Transfer-Encoding: base64",
          "",
          Buffer.from("not really a png").toString("base64"),
          "--r--",
        ].join("\r\n"),
      ),
    );
    expect(related).toMatchObject({
      html: '<img src="cid:logo@x">',
      attachments: [{ PartID: "2", FileName: "Résumé.pdf", ContentType: "application/pdf", Size: 3 }],
      inline: [{ PartID: "3", FileName: "logo@x", ContentType: "image/png", ContentID: "logo@x", Size: 16 }],
    });
  });
});
