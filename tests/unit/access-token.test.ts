import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { currentAccessToken } from "../../lib/supabase/access-token";
import type { BrowserAuth } from "../../lib/supabase/client";
import { sessionCookieStorage } from "../../lib/supabase/cookie-storage";
import { tokenRefreshMarginMs } from "../../lib/supabase/session-key";
import { cookieJar } from "../helpers/cookie-jar";

// The token the data and live clients send on a page: a visitor's page (no session in its cookies)
// asks as anon and a signed-in page sends the token in its cookies while it is not due, both
// without loading the session client; a token that is due, or a loaded session client, is the
// session client's to answer (it refreshes first).

const storageKey = "sb-127-auth-token";
let jar: Map<string, string>;
const global = globalThis as { document?: unknown };

beforeEach(() => {
  const cookies = cookieJar();
  jar = cookies.jar;
  global.document = cookies.document;
});
afterEach(() => {
  delete global.document;
});

function sessionClient(accessToken: string | null) {
  const auth = {
    getSession: async () => ({ data: { session: accessToken ? { access_token: accessToken } : null } }),
  } as unknown as BrowserAuth;
  let loaded = false;
  const load = vi.fn(async () => {
    loaded = true;
    return auth;
  });
  return { loaded: () => loaded, load };
}

test("with no session in the cookies, it is null and the session client stays unloaded", async () => {
  const session = sessionClient("unused");
  expect(await currentAccessToken(storageKey, session)).toBeNull();
  expect(session.load).not.toHaveBeenCalled();
});

const storeSession = (session: Record<string, unknown>) => sessionCookieStorage.setItem(storageKey, JSON.stringify(session));
const inSeconds = (ms: number) => Math.floor((Date.now() + ms) / 1000);

test("a session in the cookies whose token is not due is sent as it is, without loading the session client", async () => {
  const session = sessionClient("unused");
  await storeSession({ access_token: "token-in-the-cookies", expires_at: inSeconds(3600_000) });
  expect(await currentAccessToken(storageKey, session)).toBe("token-in-the-cookies");
  expect(session.load).not.toHaveBeenCalled();
  // Another tab refreshed or signed in: the next ask reads the new cookies.
  await storeSession({ access_token: "token-from-another-tab", expires_at: inSeconds(3600_000) });
  expect(await currentAccessToken(storageKey, session)).toBe("token-from-another-tab");
  expect(session.load).not.toHaveBeenCalled();
});

test.each([
  ["due within the refresh margin", { access_token: "about-to-expire", expires_at: inSeconds(tokenRefreshMarginMs - 5_000) }],
  ["already expired", { access_token: "expired", expires_at: inSeconds(-60_000) }],
  ["without an access token", { expires_at: inSeconds(3600_000) }],
])("a stored session %s loads the session client, which answers with a fresh token", async (_, stored) => {
  const session = sessionClient("refreshed-token");
  await storeSession(stored);
  expect(await currentAccessToken(storageKey, session)).toBe("refreshed-token");
  expect(session.load).toHaveBeenCalledOnce();
});

test("once the session client has loaded, it answers, whatever the cookies hold", async () => {
  const session = sessionClient(null);
  await session.load();
  expect(await currentAccessToken(storageKey, session)).toBeNull(); // no cookies: it signs the page out
  await storeSession({ access_token: "stale-copy", expires_at: inSeconds(3600_000) });
  const refreshed = sessionClient("the-clients-own-token");
  await refreshed.load();
  expect(await currentAccessToken(storageKey, refreshed)).toBe("the-clients-own-token");
  expect(session.load).toHaveBeenCalledTimes(2);
});

test("a torn session cookie counts as no session", async () => {
  const session = sessionClient("unused");
  jar.set(storageKey, "base64-not%20json");
  expect(await currentAccessToken(storageKey, session)).toBeNull();
  expect(session.load).not.toHaveBeenCalled();
});
