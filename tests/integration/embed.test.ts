// The embed function, run by the stack's Functions service on the running stack's database with
// its provider endpoints pointed (by configuration, OEMBED_ENDPOINT_*) at local servers that answer
// in each provider's real oEmbed format. Called with supabase-js as a signed-in user, and raw.
import net, { type AddressInfo } from "node:net";
import { createClient, FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { serveFunctions, type StandaloneFunctions } from "@cuepoint/stack/functions";
import { lookUpEmbed } from "../../lib/media/embed-lookup";
import { mediaUrlMessages } from "../../lib/media/url-rules";
import { embedMessages } from "../../lib/validation/embed";
import { type OembedProviders, startOembedProviders } from "../helpers/oembed-providers";
import { adminQuery, anonClient, anonKey, apiUrl, config } from "../helpers/stack";
import { admin, signedInUser } from "../helpers/wallets";

// the first call boots the function (and on a fresh clone fetches its packages); timeouts take 5 s
vi.setConfig({ testTimeout: 120_000 });

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; error?: string; provider?: string; cached?: boolean; embed?: Record<string, unknown> };
}

async function callEmbed(client: SupabaseClient, body: unknown): Promise<Answer> {
  const { data, error, response } = await client.functions.invoke("embed", { body: body as Record<string, unknown> });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: await res.json() };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data };
}

let providers: OembedProviders;
let functions: StandaloneFunctions;
let user: Awaited<ReturnType<typeof signedInUser>>;
let token: string;
let embed: SupabaseClient;

const links = {
  youtube: "https://www.youtube.com/watch?v=jNQXAC9IVRw",
  vimeo: "https://vimeo.com/76979871",
  soundcloud: "https://soundcloud.com/forss/flickermood",
  spotify: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
  twitch: "https://www.twitch.tv/videos/106400740",
  tiktok: "https://www.tiktok.com/@scout2015/video/6718335390845095173",
  wistia: "https://support.wistia.com/medias/26sk4lmiix",
  mux: "https://stream.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs",
};
/** YouTube links whose ID asks the local provider for one behaviour (see tests/helpers/oembed-providers.ts). */
const behaving = {
  slow: "https://youtu.be/slow0000000",
  huge: "https://youtu.be/huge0000000",
  redirect: "https://youtu.be/redirect000",
  html: "https://youtu.be/html0000000",
  missing: "https://youtu.be/missing0000",
  notjson: "https://youtu.be/notjson0000",
  reset: "https://youtu.be/reset000000",
};

const cacheRows = (url: string) =>
  adminQuery<{
    url: string;
    provider: string;
    title: string | null;
    author: string | null;
    thumbnail_url: string | null;
    fetched_at: Date;
  }>("select url, provider, title, author, thumbnail_url, fetched_at from public.media_embeds where url = $1", [url]);

async function clearCache() {
  await adminQuery("delete from public.media_embeds where url = any($1)", [
    [...Object.values(links), ...Object.values(behaving)].map((link) => new URL(link).href),
  ]);
}

beforeAll(async () => {
  providers = await startOembedProviders();
  functions = await serveFunctions(config, providers.env);
  user = await signedInUser("embed");
  token = (await user.client.auth.getSession()).data.session!.access_token;
  embed = createClient(functions.url, anonKey, { accessToken: async () => token });
  await clearCache();
}, 120_000);

afterAll(async () => {
  await clearCache();
  await functions?.close();
  await providers?.close();
  if (user) await admin.auth.admin.deleteUser(user.id);
});

beforeEach(() => {
  providers.requests.length = 0;
  providers.abandoned.length = 0;
  providers.setMode("ok");
});

describe("an allow-listed provider's link", () => {
  test("each provider is asked at its own endpoint, and its answer comes back as plain metadata, then from the cache", async () => {
    for (const [key, link] of Object.entries(links)) {
      const first = await callEmbed(embed, { url: link });
      expect(first.status, `${key}: ${JSON.stringify(first.body)}`).toBe(200);
      expect(first.body.cached).toBe(false);
      expect(first.body.url).toBe(new URL(link).href);
      expect(first.body.embed).toMatchObject({ provider: key });
      expect(Object.keys(first.body.embed!).sort()).toEqual([
        "author",
        "duration",
        "height",
        "provider",
        "provider_name",
        "thumbnail_url",
        "title",
        "width",
      ]);
      expect(JSON.stringify(first.body)).not.toMatch(/iframe|<script|blockquote/);
      const rows = await cacheRows(new URL(link).href);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ provider: key, title: first.body.embed!.title });

      const asked = providers.requests.filter((request) => request.provider === key);
      expect(asked, key).toHaveLength(1);
      expect(asked[0]).toMatchObject({ method: "GET", path: `/${key}/oembed`, format: "json" });
      expect(asked[0].url).toBe(
        key === "mux" ? "https://player.mux.com/EcHgOK9coz5K4rjSwOkoE7Y7O01201YMIC200RI6lNxnhs" : new URL(link).href,
      );

      const second = await callEmbed(embed, { url: link });
      expect(second).toEqual({ status: 200, body: { ...first.body, cached: true } });
      expect(
        providers.requests.filter((request) => request.provider === key),
        `${key} asked again`,
      ).toHaveLength(1);
    }
  });

  test("YouTube's answer, exactly as the app receives it", async () => {
    await clearCache();
    const answer = await callEmbed(embed, { url: `  ${links.youtube}  ` });
    expect(answer).toEqual({
      status: 200,
      body: {
        url: links.youtube,
        cached: false,
        embed: {
          provider: "youtube",
          provider_name: "YouTube",
          title: "Me at the zoo",
          author: "jawed",
          thumbnail_url: "https://i.ytimg.com/vi/jNQXAC9IVRw/hqdefault.jpg",
          duration: null,
          width: 200,
          height: 150,
        },
      },
    });
  });

  test("an entry older than a week is looked up again", async () => {
    await clearCache();
    expect((await callEmbed(embed, { url: links.vimeo })).body.cached).toBe(false);
    await adminQuery("update public.media_embeds set fetched_at = now() - interval '8 days' where url = $1", [links.vimeo]);
    const again = await callEmbed(embed, { url: links.vimeo });
    expect(again.body).toMatchObject({ cached: false, embed: { title: "The New Vimeo Player (You Know, For Videos)", duration: 62 } });
    expect(providers.requests.filter((request) => request.provider === "vimeo")).toHaveLength(2);
    const rows = await cacheRows(links.vimeo);
    expect(Date.now() - rows[0].fetched_at.getTime()).toBeLessThan(60_000);
  });

  test("markup in the provider's title and author is stripped: plain text in the answer and in the cache", async () => {
    const answer = await callEmbed(embed, { url: behaving.html });
    expect(answer.status).toBe(200);
    expect(answer.body.embed).toMatchObject({ title: "Night drive & chill mix", author: "DJ Ada" });
    expect(await cacheRows(behaving.html)).toMatchObject([{ title: "Night drive & chill mix", author: "DJ Ada" }]);
  });
});

describe("a provider that fails: a typed answer naming it, nothing cached", () => {
  async function expectFailure(link: string, status: number, code: string, error: string) {
    const answer = await callEmbed(embed, { url: link });
    expect(answer).toEqual({ status, body: { code, error, provider: "YouTube" } });
    expect(await cacheRows(new URL(link).href)).toEqual([]);
  }

  test("no answer within 5 s: the function gives up and says it couldn't reach the provider", async () => {
    await expectFailure(
      behaving.slow,
      503,
      "provider_unreachable",
      "We couldn't reach YouTube to read this link's details — you can still post it",
    );
    await vi.waitFor(() => expect(providers.abandoned).toContainEqual({ provider: "youtube", mode: "slow" }));
  });

  test("the connection dropped (provider down)", async () => {
    await expectFailure(behaving.reset, 503, "provider_unreachable", embedMessages.unreachable("YouTube"));
  });

  test("an answer larger than 64 KB is not read to the end (the stream is dropped)", async () => {
    await expectFailure(behaving.huge, 502, "provider_bad_answer", embedMessages.badAnswer("YouTube"));
    await vi.waitFor(() => expect(providers.abandoned).toContainEqual({ provider: "youtube", mode: "huge" }));
  });

  test("a redirect to another host is not followed: the other host receives nothing", async () => {
    await expectFailure(behaving.redirect, 502, "provider_bad_answer", embedMessages.badAnswer("YouTube"));
    expect(providers.requests.map((request) => request.url)).toEqual([behaving.redirect]);
    expect(providers.elsewhere.requests).toEqual([]);
  });

  test("404 (a private or removed video)", async () => {
    await expectFailure(
      behaving.missing,
      502,
      "provider_not_found",
      "YouTube has no details for this link (it may be private or removed) — you can still post it",
    );
  });

  test("a page instead of JSON", async () => {
    await expectFailure(behaving.notjson, 502, "provider_bad_answer", embedMessages.badAnswer("YouTube"));
  });
});

describe("lookUpEmbed, the app's typed call", () => {
  test("metadata, a failure with the provider's name and message, and a refusal", async () => {
    await adminQuery("delete from public.media_embeds where url = $1", [links.spotify]);
    expect(await lookUpEmbed(embed, links.spotify)).toMatchObject({
      ok: true,
      url: links.spotify,
      cached: false,
      embed: { provider: "spotify", title: "Never Gonna Give You Up" },
    });
    expect(await lookUpEmbed(embed, behaving.reset)).toEqual({
      ok: false,
      code: "provider_unreachable",
      error: "We couldn't reach YouTube to read this link's details — you can still post it",
      provider: "YouTube",
    });
    expect(await lookUpEmbed(embed, "http://www.youtube.com/watch?v=jNQXAC9IVRw")).toEqual({
      ok: false,
      code: "invalid_url",
      error: mediaUrlMessages.not_https,
    });
  });

  test("a backend that cannot be reached at all", async () => {
    const nowhere = createClient("http://127.0.0.1:9", anonKey, { accessToken: async () => token });
    expect(await lookUpEmbed(nowhere, links.youtube)).toEqual({
      ok: false,
      code: "network",
      error: "We couldn't look up this link's details just now — you can still post it.",
    });
  });
});

describe("bad input: 400 with a clear message, nothing fetched", () => {
  afterEach(() => expect(providers.requests).toEqual([]));

  test.each([
    ["javascript:alert(document.cookie)", mediaUrlMessages.not_https],
    ["data:audio/mpeg;base64,SUQzBAAAAAAAI1RTU0U=", mediaUrlMessages.not_https],
    ["http://www.youtube.com/watch?v=jNQXAC9IVRw", mediaUrlMessages.not_https],
    ["not a link", mediaUrlMessages.malformed],
    ["", mediaUrlMessages.empty],
    [`https://www.youtube.com/watch?v=jNQXAC9IVRw&x=${"a".repeat(2048)}`, mediaUrlMessages.too_long],
  ])("%j", async (url, message) => {
    expect(await callEmbed(embed, { url })).toEqual({ status: 400, body: { code: "invalid_url", error: message } });
  });

  test.each([
    "https://www.dailymotion.com/video/x7tgad0",
    "https://cdn.example.com/song.mp3",
    "https://www.youtube.com/results?search_query=zoo",
  ])("not allow-listed: %s", async (url) => {
    expect(await callEmbed(embed, { url })).toEqual({
      status: 400,
      body: { code: "not_allow_listed", error: embedMessages.notAllowListed },
    });
  });

  test("a body that is not {url}", async () => {
    for (const body of [{}, { url: 42 }, { url: links.youtube, endpoint: "http://127.0.0.1:1/" }, []]) {
      expect(await callEmbed(embed, body), JSON.stringify(body)).toEqual({
        status: 400,
        body: { code: "malformed", error: embedMessages.malformed },
      });
    }
    const raw = await fetch(`${functions.url}/functions/v1/embed`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ code: "malformed", error: embedMessages.malformed });
    const get = await fetch(`${functions.url}/functions/v1/embed?url=${encodeURIComponent(links.youtube)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(get.status).toBe(405);
  });
});

describe("the function cannot be made to fetch a host the caller chose", () => {
  let trap: net.Server;
  let trapPort: number;
  const connections: string[] = [];

  beforeAll(async () => {
    trap = net.createServer((socket) => {
      connections.push(`${socket.remoteAddress}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
    trapPort = (trap.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => trap.close(resolve));
  });

  test("crafted links are refused or looked up at the provider's endpoint only; the listener sees no connection", async () => {
    const t = () => trapPort;
    const crafted = [
      `https://www.youtube.com@127.0.0.1:${t()}/watch?v=jNQXAC9IVRw`,
      "https://www.youtube.com@evil.test/watch?v=jNQXAC9IVRw",
      `https://www.youtube.com:x@localhost:${t()}/watch?v=jNQXAC9IVRw`,
      `https://127.0.0.1:${t()}/watch?v=jNQXAC9IVRw`,
      `https://localhost:${t()}/watch?v=jNQXAC9IVRw`,
      `https://[::ffff:127.0.0.1]:${t()}/watch?v=jNQXAC9IVRw`,
      `https://2130706433:${t()}/watch?v=jNQXAC9IVRw`,
      `https://www.youtube.com.127.0.0.1.nip.io:${t()}/watch?v=jNQXAC9IVRw`,
      `https://www.youtube.com:${t()}/watch?v=jNQXAC9IVRw`,
      `//127.0.0.1:${t()}/watch?v=jNQXAC9IVRw`,
      `https:127.0.0.1:${t()}/watch?v=jNQXAC9IVRw`,
      `https:\\\\127.0.0.1:${t()}\\watch?v=jNQXAC9IVRw`,
      `https://127.0.0.1%3A${t()}/watch?v=jNQXAC9IVRw`,
      `http://127.0.0.1:${t()}/watch?v=jNQXAC9IVRw`,
      `https://www.youtube.com/watch?v=jNQXAC9IVRw&url=http://127.0.0.1:${t()}/`,
      `https://www.youtube.com/watch?v=jNQXAC9IVRw#@127.0.0.1:${t()}`,
      `https://www.youtube.com/watch?v=jNQXAC9IVRw%26url%3Dhttp%3A%2F%2F127.0.0.1%3A${t()}%2F`,
      `https://evil.net/redirect?to=https://www.youtube.com/watch?v=jNQXAC9IVRw`,
    ];
    for (const url of crafted) {
      const answer = await callEmbed(embed, { url });
      if (answer.status === 200) {
        // allow-listed after all (the extra text rides inside YouTube's own link): asked of YouTube's endpoint, with exactly that link
        expect(new URL(url).host, url).toBe("www.youtube.com");
        expect(providers.requests.at(-1), url).toMatchObject({
          provider: "youtube",
          path: "/youtube/oembed",
          url: new URL(url).href,
          format: "json",
        });
        await adminQuery("delete from public.media_embeds where url = $1", [new URL(url).href]);
      } else {
        expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(["invalid_url", "not_allow_listed"]).toContain(answer.body.code);
      }
    }
    expect(
      providers.requests.every((request) => request.path === "/youtube/oembed" && request.host === new URL(providers.origin).host),
    ).toBe(true);
    expect(providers.elsewhere.requests).toEqual([]);
    expect(connections).toEqual([]);
  });
});

describe("callers", () => {
  test("no session: the anon key alone is refused by the function; no key or token at all by the gateway", async () => {
    expect(await callEmbed(anonClient(), { url: links.youtube })).toEqual({
      status: 401,
      body: { code: "not_signed_in", error: embedMessages.notSignedIn },
    });
    const bare = await fetch(`${apiUrl}/functions/v1/embed`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: links.youtube }),
    });
    expect(bare.status).toBe(401);
    const forged = await fetch(`${apiUrl}/functions/v1/embed`, {
      method: "POST",
      headers: {
        apikey: anonKey,
        Authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IngifQ.bad",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ url: links.youtube }),
    });
    expect(forged.status).toBe(401);
  });

  test("on the stack itself the function is served under /functions/v1/embed with verify_jwt, and refuses bad input the same way", async () => {
    const answer = await callEmbed(user.client, { url: "javascript:alert(1)" });
    expect(answer).toEqual({ status: 400, body: { code: "invalid_url", error: mediaUrlMessages.not_https } });
  });
});
