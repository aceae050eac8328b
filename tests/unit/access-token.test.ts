import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { currentAccessToken } from "../../lib/supabase/access-token";
import type { BrowserAuth } from "../../lib/supabase/client";
import { sessionCookieStorage } from "../../lib/supabase/cookie-storage";
import { cookieJar } from "../helpers/cookie-jar";

// The data client's token on a page: a visitor's page (no session in its cookies) asks as anon
// without loading the session client; once there is a session, the session client answers.

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
  const auth = { getSession: async () => ({ data: { session: accessToken ? { access_token: accessToken } : null } }) } as unknown as BrowserAuth;
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

test("a session in the cookies (a sign-in, here or in another tab) loads the session client and sends its token", async () => {
  const session = sessionClient("token-of-the-signed-in-person");
  await sessionCookieStorage.setItem(storageKey, JSON.stringify({ access_token: "token-of-the-signed-in-person", expires_at: Math.floor(Date.now() / 1000) + 3600 }));
  expect(await currentAccessToken(storageKey, session)).toBe("token-of-the-signed-in-person");
  expect(session.load).toHaveBeenCalledOnce();
});

test("once the session client has loaded, it answers even when the cookies are gone (it signs the page out)", async () => {
  const session = sessionClient(null);
  await session.load();
  expect(await currentAccessToken(storageKey, session)).toBeNull();
  expect(session.load).toHaveBeenCalledTimes(2);
});

test("a torn session cookie counts as no session", async () => {
  const session = sessionClient("unused");
  jar.set(storageKey, "base64-not%20json");
  expect(await currentAccessToken(storageKey, session)).toBeNull();
  expect(session.load).not.toHaveBeenCalled();
});
