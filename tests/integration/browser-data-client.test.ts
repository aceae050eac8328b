// The browser's clients against a running stack: the session client (lib/supabase/client.ts) signs
// in and keeps the session in cookies; the data client (lib/supabase/data-client.ts) and the live
// client (lib/supabase/live-client.ts) have no session of their own and act as whoever that session
// is, and as anon once it ends.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { cookieJar } from "../helpers/cookie-jar";
import { createRoom } from "../helpers/post-fixtures";
import { adminQuery, apiUrl, publishableKey, serviceClient } from "../helpers/stack";

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

test("the data client acts as the session client's user, and as anon after sign-out: REST, Functions and Storage", async () => {
  const { createClient } = await import("../../lib/supabase/client");
  const { createDataClient } = await import("../../lib/supabase/data-client");
  const auth = createClient();
  const data = createDataClient(async () => (await auth.getSession()).data.session?.access_token ?? null);
  const room = await createRoom(userId, "gated"); // its owner is its first member
  const path = `${room.id}/${userId}/clip.wav`;
  const bytes = new TextEncoder().encode("RIFF-not-really-a-wav");
  const uploaded = await serviceClient().storage.from("media").upload(path, bytes, { contentType: "audio/wav" });
  expect(uploaded.error).toBeNull();
  try {
    const signedIn = await auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    expect([...cookies.keys()].some((name) => /^sb-127-auth-token/.test(name))).toBe(true);

    // Only the owner may update a profile (RLS): the row comes back only when the request is theirs.
    const own = await data.from("profiles").update({ bio: "set through the data client" }).eq("id", userId).select("id, bio");
    expect(own.error).toBeNull();
    expect(own.data).toEqual([{ id: userId, bio: "set through the data client" }]);
    const clock = await data.rpc("server_clock_ms");
    expect(clock.error).toBeNull();
    expect(Math.abs(Number(clock.data) - Date.now())).toBeLessThan(60_000);
    // A function that needs a signed-in caller (verify_jwt) answers them.
    const refreshed = await data.functions.invoke<{ refreshed: number }>("link-wallet", { body: { action: "refresh" } });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data).toEqual({ refreshed: 0 });
    // A member reads the room's media through a signed URL.
    const storage = await data.storage();
    expect(await data.storage()).toBe(storage);
    const signed = await storage.from("media").createSignedUrl(path, 60);
    expect(signed.error).toBeNull();
    const file = await fetch(signed.data!.signedUrl);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);

    expect((await auth.signOut({ scope: "local" })).error).toBeNull();
    expect([...cookies.keys()].filter((name) => /^sb-127-auth-token/.test(name))).toEqual([]);
    const anon = await data.from("profiles").update({ bio: "anon was here" }).eq("id", userId).select("id");
    expect(anon.data ?? []).toEqual([]);
    const stored = await serviceClient().from("profiles").select("bio").eq("id", userId).single();
    expect(stored.data?.bio).toBe("set through the data client");
    // Signed out, the function is refused before it runs (no JWT: the publishable key is not one),
    // and the gated room's media cannot be signed.
    const refused = await data.functions.invoke("link-wallet", { body: { action: "refresh" } });
    expect((refused.error as { context?: Response } | null)?.context?.status).toBe(401);
    const anonSigned = await storage.from("media").createSignedUrl(path, 60);
    expect(anonSigned.data).toBeNull();
    expect(anonSigned.error).not.toBeNull();
  } finally {
    auth.stopAutoRefresh();
    await serviceClient().storage.from("media").remove([path]);
    await adminQuery("delete from public.rooms where id = $1", [room.id]);
  }
});

test("the live client joins a member's gated room channel with the cookies' token, without running the session client, and hears the room's posts", async () => {
  const { createClient } = await import("../../lib/supabase/client");
  const { createLiveClient } = await import("../../lib/supabase/live-client");
  const { currentAccessToken } = await import("../../lib/supabase/access-token");
  const { sessionStorageKey, tokenRefreshMarginMs } = await import("../../lib/supabase/session-key");
  const auth = createClient();
  const signedIn = await auth.signInWithPassword({ email, password });
  auth.stopAutoRefresh();
  expect(signedIn.data.session?.expires_in, "the stack issues tokens that outlive the refresh margin").toBeGreaterThan(
    tokenRefreshMarginMs / 1000,
  );
  const room = await createRoom(userId, "gated"); // its owner is its first member
  let loads = 0;
  const session = { loaded: () => false, load: async () => (loads++, auth) };
  const live = createLiveClient(() => currentAccessToken(sessionStorageKey(apiUrl), session));
  // As the app's connections do: ask for the token first, so the join carries it.
  const join = async (onPost: (title: string) => void) => {
    await live.setAuth();
    return new Promise<string>((resolve) => {
      const channel = live.channel(`room:${room.id}`, { config: { private: true } });
      channel.on("broadcast", { event: "posts" }, ({ payload }) => onPost((payload as { record: { title: string } }).record.title));
      channel.subscribe((status) => status !== "CLOSED" && resolve(status));
    });
  };
  try {
    const titles: string[] = [];
    expect(await join((title) => titles.push(title))).toBe("SUBSCRIBED");
    await adminQuery(
      "insert into public.posts (room_id, author_id, title, media_kind, media_url) values ($1, $2, 'Heard live', 'embed', 'https://example.com/a.mp3')",
      [room.id, userId],
    );
    await vi.waitFor(() => expect(titles).toEqual(["Heard live"]), { timeout: 10_000 });
    expect(loads, "the session client was not needed for a token that is not due").toBe(0);

    // Signed out: the cookies are empty, so the next join goes as anon, which a gated room refuses.
    await live.removeAllChannels();
    expect((await auth.signOut({ scope: "local" })).error).toBeNull();
    expect(await join(() => {})).toBe("CHANNEL_ERROR");
    expect(loads).toBe(0);
  } finally {
    await live.removeAllChannels();
    await adminQuery("delete from public.rooms where id = $1", [room.id]);
  }
});

test("two connections of a page joining at once on one live client both carry the token", async () => {
  const { createClient } = await import("../../lib/supabase/client");
  const { createLiveClient } = await import("../../lib/supabase/live-client");
  const { authorizeLive } = await import("../../lib/realtime/live-auth");
  const auth = createClient();
  const signedIn = await auth.signInWithPassword({ email, password });
  auth.stopAutoRefresh();
  const token = signedIn.data.session?.access_token ?? null;
  expect(token).not.toBeNull();
  const room = await createRoom(userId, "gated"); // its owner is its first member
  // As the app's token rule does, the token comes back after a moment (it reads the cookies).
  const live = createLiveClient(() => new Promise((resolve) => setTimeout(() => resolve(token), 20)));
  const join = async (topic: string) => {
    await authorizeLive(live);
    return new Promise<string>((resolve) => {
      live.channel(topic, { config: { private: true } }).subscribe((status) => status !== "CLOSED" && resolve(status));
    });
  };
  try {
    // The room's channel and its listening session's, both for members only.
    expect(await Promise.all([join(`room:${room.id}`), join(`session:${room.id}`)])).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
  } finally {
    await live.removeAllChannels();
    await auth.signOut({ scope: "local" });
    await adminQuery("delete from public.rooms where id = $1", [room.id]);
  }
});
