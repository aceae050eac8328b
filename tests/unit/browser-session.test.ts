import { createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import { afterEach, describe, expect, test } from "vitest";
import { browserSessionStorage, sessionStorageKey } from "../../lib/supabase/client";

// The browser keeps its session with auth-js alone (lib/supabase/client.ts); the server reads it
// with @supabase/ssr's server client, inside a full supabase-js client. These checks hold the two
// to the same cookie name and the same cookie format.

const key = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";

describe("sessionStorageKey", () => {
  test.each(["http://127.0.0.1:54321", "http://localhost:54321/", "https://abcdefghijklmnop.supabase.co"])("is supabase-js's own key for %s", (url) => {
    const client = createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false } });
    expect(sessionStorageKey(url)).toBe((client as unknown as { storageKey: string }).storageKey); // protected in its types
  });
});

/** A minimal document.cookie: each assignment sets or (Max-Age=0) deletes one cookie. */
function cookieJar() {
  const jar = new Map<string, string>();
  const document = {
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    set cookie(line: string) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) jar.delete(name);
      else jar.set(name, pair.slice(at + 1));
    },
  };
  return { jar, document };
}

describe("browserSessionStorage", () => {
  const global = globalThis as { window?: unknown; document?: unknown };
  afterEach(() => {
    delete global.window;
    delete global.document;
  });

  test("writes the session in cookies the server client reads back", async () => {
    const { jar, document } = cookieJar();
    global.document = document;
    global.window = { document };
    const url = "http://127.0.0.1:54321";
    const storageKey = sessionStorageKey(url);
    // Large enough to be split into several cookies, as real sessions with user metadata are.
    const session = {
      access_token: `header.${"p".repeat(3000)}.signature`,
      refresh_token: "refresh-1",
      token_type: "bearer",
      expires_in: 3600,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      user: { id: "3f1c5b8e-0000-4000-8000-000000000001", aud: "authenticated", role: "authenticated", email: "ada@example.test", app_metadata: {}, user_metadata: {}, created_at: "2026-01-01T00:00:00Z" },
    };
    await browserSessionStorage().setItem(storageKey, JSON.stringify(session));

    expect([...jar.keys()].sort()).toEqual([`${storageKey}.0`, `${storageKey}.1`]);
    expect(jar.get(`${storageKey}.0`)).toMatch(/^base64-/);
    expect(JSON.parse((await browserSessionStorage().getItem(storageKey)) ?? "null")).toEqual(session);

    const server = createServerClient(url, key, {
      cookies: { getAll: () => [...jar].map(([name, value]) => ({ name, value })), setAll: () => {} },
    });
    const { data } = await server.auth.getSession();
    expect(data.session?.access_token).toBe(session.access_token);
    expect(data.session?.user.email).toBe("ada@example.test");

    await browserSessionStorage().removeItem(storageKey);
    expect([...jar.keys()]).toEqual([]);
  });
});
