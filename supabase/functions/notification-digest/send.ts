// Sending one email, by SMTP (nodemailer under Deno's Node compatibility) or, when EMAIL_HTTP_URL
// is set, by an HTTP email API in Resend's shape: POST EMAIL_HTTP_URL with
// `Authorization: Bearer EMAIL_HTTP_TOKEN` and JSON {from, to: [address], subject, text, html,
// headers}; any 2xx is sent. (Resend: EMAIL_HTTP_URL=https://api.resend.com/emails.)
import nodemailer from "npm:nodemailer@10";
import type { DigestEmail } from "../../../lib/notifications/email.ts";

export interface Sender {
  send(email: DigestEmail): Promise<void>;
  close(): void;
}

const env = (name: string) => Deno.env.get(name)?.trim() || undefined;

export class SenderNotConfigured extends Error {}

export function senderFromEnv(): Sender {
  const from = env("SMTP_FROM") ?? env("EMAIL_FROM");
  if (!from) throw new SenderNotConfigured("Set SMTP_FROM (the digest's From address) in the function's secrets.");
  const httpUrl = env("EMAIL_HTTP_URL");
  if (httpUrl) return httpSender(httpUrl, env("EMAIL_HTTP_TOKEN"), from);
  const host = env("SMTP_HOST");
  if (!host) throw new SenderNotConfigured("Set SMTP_HOST and SMTP_PORT (or EMAIL_HTTP_URL) in the function's secrets.");
  const port = Number(env("SMTP_PORT") ?? 587);
  const user = env("SMTP_USER");
  const transport = nodemailer.createTransport({
    host,
    port,
    // 465 is TLS from the first byte; other ports upgrade with STARTTLS when the server offers it.
    secure: port === 465,
    auth: user ? { user, pass: env("SMTP_PASS") ?? "" } : undefined,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(email) {
      await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text, html: email.html, headers: email.headers });
    },
    close: () => transport.close(),
  };
}

function httpSender(url: string, token: string | undefined, from: string): Sender {
  return {
    async send(email) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ from, to: [email.to], subject: email.subject, text: email.text, html: email.html, headers: email.headers }),
        signal: AbortSignal.timeout(20_000),
      });
      if (!response.ok) throw new Error(`email API answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      await response.body?.cancel();
    },
    close: () => undefined,
  };
}
