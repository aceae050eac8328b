// The browser's two halves against a running stack: the session client (lib/supabase/client.ts)
// signs in and keeps the session in cookies; the data client (lib/supabase/data-client.ts) has no
// session of its own and acts as whoever that session is, and as anon once it ends.
import { afterAll, beforeAll, expect, test } from "vitest";
import { cookieJar } from "../helpers/cookie-jar";
import { apiUrl, publishableKey, serviceClient } from "../helpers/stack";

const { jar: cookies, document } = cookieJar();
const global = globalThis as { window?: unknown; document?: unknown };
const email = `data-client-${Date.now()}@example.test`;
const password = "data-client-password-1";
let userId = "";

beforeAll(async () => {
  global.document = document;
  global.window = { document, location: { href: "http://localhost/" } };
  process.env.NEXT_PUBLIC_SUPABASE_URL = apiUrl;
  process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = publishableKey;
  const { data, error } = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw error;
  userId = data.user.id;
});

afterAll(async () => {
  delete global.window;
  delete global.document;
  if (userId) await serviceClient().auth.admin.deleteUser(userId);
});

test("the data client acts as the session client's user, and as anon after sign-out", async () => {
  const { createClient } = await import("../../lib/supabase/client");
  const { createDataClient } = await import("../../lib/supabase/data-client");
  const auth = createClient();
  const data = createDataClient(async () => (await auth.getSession()).data.session?.access_token ?? null);
  try {
    const signedIn = await auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    expect([...cookies.keys()].some((name) => /^sb-127-auth-token/.test(name))).toBe(true);

    // Only the owner may update a profile (RLS): the row comes back only when the request is theirs.
    const own = await data.from("profiles").update({ bio: "set through the data client" }).eq("id", userId).select("id, bio");
    expect(own.error).toBeNull();
    expect(own.data).toEqual([{ id: userId, bio: "set through the data client" }]);

    expect((await auth.signOut({ scope: "local" })).error).toBeNull();
    expect([...cookies.keys()].filter((name) => /^sb-127-auth-token/.test(name))).toEqual([]);
    const anon = await data.from("profiles").update({ bio: "anon was here" }).eq("id", userId).select("id");
    expect(anon.data ?? []).toEqual([]);
    const stored = await serviceClient().from("profiles").select("bio").eq("id", userId).single();
    expect(stored.data?.bio).toBe("set through the data client");
  } finally {
    auth.stopAutoRefresh();
    await data.removeAllChannels();
  }
});
