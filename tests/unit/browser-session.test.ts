import { createBrowserClient, createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { sessionStorageKey } from "../../lib/supabase/session-key";
import { sessionCookieStorage, storedSession } from "../../lib/supabase/cookie-storage";
import { cookieJar } from "../helpers/cookie-jar";

// The browser keeps its session with the session client (lib/supabase/client.ts) in cookies written
// by lib/supabase/cookie-storage.ts; the server (and proxy.ts) reads them with @supabase/ssr. These
// checks hold our cookies to exactly what @supabase/ssr's createBrowserClient writes and reads.

const key = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";
const url = "http://127.0.0.1:54321";
type Storage = typeof sessionCookieStorage;

describe("sessionStorageKey", () => {
  test.each(["http://127.0.0.1:54321", "http://localhost:54321/", "https://abcdefghijklmnop.supabase.co"])(
    "is supabase-js's own key for %s",
    (projectUrl) => {
      const client = createClient(projectUrl, key, { auth: { persistSession: false, autoRefreshToken: false } });
      expect(sessionStorageKey(projectUrl)).toBe((client as unknown as { storageKey: string }).storageKey); // protected in its types
    },
  );
});

const global = globalThis as { window?: unknown; document?: unknown };
let current: ReturnType<typeof cookieJar>;
beforeEach(() => {
  current = cookieJar();
  global.document = current.document;
  global.window = { document: current.document };
});
afterEach(() => {
  delete global.window;
  delete global.document;
});

/** createBrowserClient's own cookie storage (the one its auth client writes the session with). */
function ssrStorage(): Storage {
  const client = createBrowserClient(url, key, { isSingleton: false, auth: { autoRefreshToken: false, detectSessionInUrl: false } });
  return (client.auth as unknown as { storage: Storage }).storage;
}

function session(size: number, fill = "p") {
  return JSON.stringify({
    access_token: `header.${fill.repeat(size)}.signature`,
    refresh_token: "refresh-1",
    token_type: "bearer",
    expires_in: 3600,
    expires_at: 1_900_000_000,
    user: {
      id: "3f1c5b8e-0000-4000-8000-000000000001",
      aud: "authenticated",
      role: "authenticated",
      email: "ada@example.test",
      app_metadata: {},
      user_metadata: { name: "Ada Løvelace ✓" },
      created_at: "2026-01-01T00:00:00Z",
    },
  });
}

/** Runs the same storage calls against one storage on a fresh jar; returns the Set-Cookie lines and the final cookies. */
async function record(storage: () => Storage, steps: (s: Storage, storageKey: string) => Promise<void>) {
  current = cookieJar();
  global.document = current.document;
  global.window = { document: current.document };
  await steps(storage(), sessionStorageKey(url));
  return { writes: current.writes, cookies: Object.fromEntries(current.jar) };
}

describe("the session cookies", () => {
  const scenarios: [string, (s: Storage, k: string) => Promise<void>][] = [
    ["a small session", (s, k) => s.setItem(k, session(100))],
    ["a session split over several cookies", (s, k) => s.setItem(k, session(7000))],
    [
      "a large session replaced by a small one (stale chunks cleared)",
      async (s, k) => {
        await s.setItem(k, session(7000));
        await s.setItem(k, session(100));
      },
    ],
    [
      "a small session replaced by a large one",
      async (s, k) => {
        await s.setItem(k, session(100));
        await s.setItem(k, session(4000));
      },
    ],
    [
      "sign-out (removeItem)",
      async (s, k) => {
        await s.setItem(k, session(7000));
        await s.removeItem(k);
      },
    ],
    ["the PKCE code verifier", (s, k) => s.setItem(`${k}-code-verifier`, JSON.stringify("verifier-abc/PASSWORD_RECOVERY"))],
  ];

  test.each(scenarios)("%s: the same Set-Cookie lines as createBrowserClient", async (_name, steps) => {
    const ours = await record(() => sessionCookieStorage, steps);
    const theirs = await record(ssrStorage, steps);
    expect(ours.writes.length).toBeGreaterThan(0);
    expect(ours).toEqual(theirs);
  });

  test("each reads what the other wrote, and the server client reads the session", async () => {
    const storageKey = sessionStorageKey(url);
    const value = session(7000);
    await sessionCookieStorage.setItem(storageKey, value);
    expect(Object.keys(Object.fromEntries(current.jar)).sort()).toEqual([0, 1, 2, 3].map((chunk) => `${storageKey}.${chunk}`));
    expect(await ssrStorage().getItem(storageKey)).toBe(value);
    expect(await sessionCookieStorage.getItem(storageKey)).toBe(value);

    const server = createServerClient(url, key, {
      cookies: { getAll: () => [...current.jar].map(([name, v]) => ({ name, value: v })), setAll: () => {} },
    });
    const { data } = await server.auth.getSession();
    expect(data.session?.user.email).toBe("ada@example.test");

    await ssrStorage().setItem(storageKey, session(50));
    expect(await sessionCookieStorage.getItem(storageKey)).toBe(session(50));
    expect(await sessionCookieStorage.getItem("sb-other-auth-token")).toBeNull();
  });

  test("chunks from two different writes (a torn write) read as no session, not as garbage", async () => {
    const storageKey = sessionStorageKey(url);
    await sessionCookieStorage.setItem(storageKey, session(7000));
    const first = new Map(current.jar);
    await sessionCookieStorage.setItem(storageKey, session(3500, "q"));
    expect(current.jar.size).toBe(2);
    // The browser kept the second write's chunk 1 but the first write's other chunks.
    for (const chunk of [0, 2, 3]) current.jar.set(`${storageKey}.${chunk}`, first.get(`${storageKey}.${chunk}`)!);
    expect(await sessionCookieStorage.getItem(storageKey)).toBeNull();
    expect(await ssrStorage().getItem(storageKey)).toBeNull();
  });
});

// A signed-in page starts without the session client and loads it by this reading of the cookies
// (lib/supabase/deferred-session.ts): when the token is due, or at once when there is no session;
// until then its data and live clients send the stored token (lib/supabase/access-token.ts).
describe("storedSession", () => {
  test("is the stored session's expires_at and access token, whole or split over several cookies", async () => {
    const storageKey = sessionStorageKey(url);
    await sessionCookieStorage.setItem(storageKey, session(100));
    expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: `header.${"p".repeat(100)}.signature` });
    await sessionCookieStorage.setItem(storageKey, session(7000, "q"));
    expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: `header.${"q".repeat(7000)}.signature` });
  });

  test("has no access token when the stored one is missing, empty or not a string", async () => {
    const storageKey = sessionStorageKey(url);
    for (const accessToken of [undefined, "", 42]) {
      await sessionCookieStorage.setItem(storageKey, JSON.stringify({ access_token: accessToken, expires_at: 1_900_000_000 }));
      expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: null });
    }
  });

  test("is null with no session, after sign-out, for a torn write and for a value without expires_at", async () => {
    const storageKey = sessionStorageKey(url);
    expect(await storedSession(storageKey)).toBeNull();
    await sessionCookieStorage.setItem(storageKey, session(7000));
    await sessionCookieStorage.removeItem(storageKey);
    expect(await storedSession(storageKey)).toBeNull();
    await sessionCookieStorage.setItem(storageKey, session(7000));
    current.jar.set(`${storageKey}.1`, "not-the-same-write");
    expect(await storedSession(storageKey)).toBeNull();
    await sessionCookieStorage.setItem(storageKey, JSON.stringify({ access_token: "a", refresh_token: "r" }));
    expect(await storedSession(storageKey)).toBeNull();
  });

  describe("where the browser has the Cookie Store API", () => {
    const withCookieStore = globalThis as { cookieStore?: unknown };
    const getAll = vi.fn(async () => [...current.jar].map(([name, value]) => ({ name, value })));
    beforeEach(() => {
      getAll.mockClear();
      withCookieStore.cookieStore = { getAll };
    });
    afterEach(() => {
      delete withCookieStore.cookieStore;
    });
    /** Until `allow()`, reading document.cookie (which blocks the page) fails the test. */
    const blockDocumentCookieReads = () => {
      global.document = {
        get cookie(): string {
          throw new Error("read document.cookie");
        },
      };
      return { allow: () => void (global.document = current.document) };
    };

    test("reads the session through it, without reading document.cookie, and sees each new write", async () => {
      const storageKey = sessionStorageKey(url);
      await sessionCookieStorage.setItem(storageKey, session(7000, "q"));
      let reads = blockDocumentCookieReads();
      expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: `header.${"q".repeat(7000)}.signature` });
      reads.allow();
      // Another tab refreshed the session (written here as @supabase/ssr writes it).
      await ssrStorage().setItem(storageKey, session(100));
      reads = blockDocumentCookieReads();
      expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: `header.${"p".repeat(100)}.signature` });
      reads.allow();
      expect(getAll).toHaveBeenCalledTimes(2);
    });

    test("falls back to document.cookie when the Cookie Store refuses", async () => {
      const storageKey = sessionStorageKey(url);
      await sessionCookieStorage.setItem(storageKey, session(100));
      getAll.mockRejectedValueOnce(new DOMException("insecure context", "SecurityError"));
      expect(await storedSession(storageKey)).toEqual({ expiresAt: 1_900_000_000, accessToken: `header.${"p".repeat(100)}.signature` });
      expect(getAll).toHaveBeenCalledTimes(1);
    });
  });
});
