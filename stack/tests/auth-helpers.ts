// Shared by the Auth conformance suites: unique addresses, clients with their own storage (so PKCE
// verifiers persist per client), the inbox as the e2e tests read it, and JWT decoding.
import { createClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import pg from "pg";
import { anonKey, apiUrl, databaseUrl, inboxUrl, serviceRoleKey } from "./helpers/stack.ts";

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@auth.stack.test`;
}

/** A storage that lives as long as the client: the PKCE code verifier is kept here. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

export function client(options: { flowType?: "pkce" | "implicit"; key?: string } = {}) {
  const auth: SupabaseClientOptions<"public">["auth"] = {
    persistSession: true,
    autoRefreshToken: false,
    detectSessionInUrl: false,
    storage: memoryStorage(),
    flowType: options.flowType ?? "implicit",
  };
  return createClient(apiUrl, options.key ?? anonKey, { auth });
}

export const admin = () => createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

export interface MailSummary {
  ID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
  Created: string;
  Snippet: string;
}

export interface MailMessage extends MailSummary {
  HTML: string;
  Text: string;
}

/** The newest message to `to` (waiting up to 30 s for it on a busy machine), read as the e2e helper reads it. */
export async function latestMail(to: string, subject?: RegExp, count = 1): Promise<MailMessage> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const list = (await (await fetch(`${inboxUrl}/api/v1/messages?limit=500`)).json()) as { messages: MailSummary[] };
    const matches = list.messages.filter((m) => m.To.some((r) => r.Address === to) && (!subject || subject.test(m.Subject)));
    if (matches.length >= count) return (await (await fetch(`${inboxUrl}/api/v1/message/${matches[0].ID}`)).json()) as MailMessage;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${to}${subject ? ` matching ${subject}` : ""}`);
}

export async function mailsTo(to: string): Promise<MailSummary[]> {
  const list = (await (await fetch(`${inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:${to}`)}`)).json()) as {
    messages: MailSummary[];
  };
  return list.messages;
}

/** The first link of an email, un-escaped as a browser would read the href. */
export function firstLink(message: MailMessage): URL {
  const href = /href="([^"]+)"/.exec(message.HTML)?.[1];
  if (!href) throw new Error(`no link in: ${message.HTML}`);
  return new URL(href.replaceAll("&amp;", "&"));
}

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;
}

export async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

export async function createConfirmedUser(label: string, password = "correct-horse-battery") {
  const email = uniqueEmail(label);
  const { data, error } = await admin().auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`);
  return { id: data.user.id, email, password };
}

/** Raw request to the Auth API, for status codes and bodies supabase-js does not expose. */
export async function authFetch(path: string, init: RequestInit & { apiVersion?: boolean; bearer?: string } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("apikey")) headers.set("apikey", anonKey);
  if (init.apiVersion) headers.set("X-Supabase-Api-Version", "2024-01-01");
  if (init.bearer) headers.set("Authorization", `Bearer ${init.bearer}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const response = await fetch(`${apiUrl}/auth/v1${path}`, { ...init, headers, redirect: "manual" });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: body as Record<string, unknown> };
}

export { anonKey, apiUrl, inboxUrl, serviceRoleKey };
