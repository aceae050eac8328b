import { createClient } from "@supabase/supabase-js";
import { afterEach, beforeEach, expect, test, vi } from "vitest";

// The browser's live client (lib/supabase/live-client.ts) stands in for the Realtime client that
// supabase-js builds inside createClient: it must connect where that one connects, with the same
// key, and send the same token.

const key = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";

beforeEach(() => vi.resetModules());
afterEach(() => vi.unstubAllEnvs());

async function liveClientFor(projectUrl: string, accessToken: () => Promise<string | null>) {
  vi.stubEnv("NEXT_PUBLIC_SUPABASE_URL", projectUrl);
  vi.stubEnv("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY", key);
  const { createLiveClient } = await import("../../lib/supabase/live-client");
  return createLiveClient(accessToken);
}

test.each(["http://127.0.0.1:54321", "http://localhost:54321/", "https://abcdefghijklmnop.supabase.co"])(
  "connects to supabase-js's own Realtime endpoint for %s",
  async (projectUrl) => {
    const live = await liveClientFor(projectUrl, async () => null);
    const data = createClient(projectUrl, key, { accessToken: async () => null });
    expect(live.endpointURL()).toBe(data.realtime.endpointURL());
    expect(live.endpointURL()).toContain(`apikey=${key}`);
  },
);

test("sends the page's token, and the key when there is none, as supabase-js does", async () => {
  let token: string | null = "token-of-the-signed-in-person";
  const live = await liveClientFor("http://127.0.0.1:54321", async () => token);
  await live.setAuth();
  expect(live.accessTokenValue).toBe("token-of-the-signed-in-person");
  token = null;
  await live.setAuth();
  expect(live.accessTokenValue).toBe(key);
  const data = createClient("http://127.0.0.1:54321", key, { accessToken: async () => null });
  await data.realtime.setAuth();
  expect(data.realtime.accessTokenValue).toBe(key);
});
