// Local stand-ins for the allow-listed oEmbed providers: one HTTP server answering
// `/<provider>/oembed?url=…&format=json` in each provider's own JSON format (their field names and
// types, their `html` embed code included), so the embed function can be exercised without the
// internet. Point the function at it with OEMBED_ENDPOINT_<PROVIDER>=<endpoints[provider]>
// (`env` has them all).
//
// Behaviours, chosen by the link asked about (a word in its ID), or for every link by `setMode`:
//   slow      never answers (the caller must give up)          huge      streams a 4 MB JSON answer
//   redirect  302 to another host (the `elsewhere` listener)   html      markup in title and author
//   missing   404 Not Found                                    notjson   200 with an HTML page
//   reset     drops the connection
// Every request is recorded (`requests`), and so is every request that reaches `elsewhere`.
//
// As a program (`npm run oembed:local`, and Playwright's config starts it for e2e):
// `node tests/helpers/oembed-providers.ts [port]` serves on 127.0.0.1:<port> (default
// OEMBED_PROVIDERS_PORT, else 3190) and prints the variables in supabase/functions/.env form.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { pathToFileURL } from "node:url";
import type { OembedProviderKey } from "../../lib/media/oembed-providers.ts";

export type ProviderMode = "ok" | "slow" | "huge" | "redirect" | "html" | "missing" | "notjson" | "reset";

export const providerKeys: readonly OembedProviderKey[] = [
  "youtube",
  "vimeo",
  "soundcloud",
  "spotify",
  "twitch",
  "tiktok",
  "wistia",
  "mux",
];

const modeWords: readonly Exclude<ProviderMode, "ok">[] = ["slow", "huge", "redirect", "html", "missing", "notjson", "reset"];

export interface RecordedRequest {
  provider: string;
  method: string;
  path: string;
  url: string | null;
  format: string | null;
  host: string | undefined;
}

export interface OembedProviders {
  origin: string;
  endpoints: Record<OembedProviderKey, string>;
  /** OEMBED_ENDPOINT_<PROVIDER> for every provider, pointing here. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  /** Requests that reached the other host (redirect targets): there should be none. */
  elsewhere: { origin: string; requests: { method: string; path: string }[] };
  /** Connections the server saw closed by the caller before its answer was complete. */
  abandoned: { provider: string; mode: ProviderMode }[];
  setMode(mode: ProviderMode, provider?: OembedProviderKey): void;
  close(): Promise<void>;
}

/** Markup in every text field, as a compromised or careless provider might send it. */
export const htmlTitle = '<b>Night</b> <script>alert("title")</script>drive &amp; <img src=x onerror=alert(1)>chill &lt;i&gt;mix&lt;/i&gt;';
export const htmlAuthor = '<a href="https://evil.test/">DJ <em>Ada</em></a>';

function videoId(link: string): string {
  const match = /(?:v=|youtu\.be\/|shorts\/|video\/|medias\/|iframe\/|track\/|videos\/|mux\.com\/)([\w-]+)/.exec(link);
  return match?.[1] ?? "x";
}

/** Each provider's answer, with the fields and types the real endpoint sends. */
export function realAnswer(provider: OembedProviderKey, link: string): Record<string, unknown> {
  const id = videoId(link);
  switch (provider) {
    case "youtube":
      return {
        title: "Me at the zoo",
        author_name: "jawed",
        author_url: "https://www.youtube.com/@jawed",
        type: "video",
        height: 150,
        width: 200,
        version: "1.0",
        provider_name: "YouTube",
        provider_url: "https://www.youtube.com/",
        thumbnail_height: 360,
        thumbnail_width: 480,
        thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
        html: `<iframe width="200" height="150" src="https://www.youtube.com/embed/${id}?feature=oembed" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="Me at the zoo"></iframe>`,
      };
    case "vimeo":
      return {
        type: "video",
        version: "1.0",
        provider_name: "Vimeo",
        provider_url: "https://vimeo.com/",
        title: "The New Vimeo Player (You Know, For Videos)",
        author_name: "Vimeo",
        author_url: "https://vimeo.com/staff",
        is_plus: "0",
        account_type: "live_business",
        html: `<iframe src="https://player.vimeo.com/video/${id}?app_id=122963" width="640" height="360" frameborder="0" allow="autoplay; fullscreen; picture-in-picture; clipboard-write; encrypted-media; web-share" referrerpolicy="strict-origin-when-cross-origin" title="The New Vimeo Player (You Know, For Videos)"></iframe>`,
        width: 640,
        height: 360,
        duration: 62,
        description: "It may look (mostly) the same on the surface, but under the hood we totally rebuilt our player.",
        thumbnail_url: "https://i.vimeocdn.com/video/452001751-8216e0571c251a09d7a8387550942d89f7f86f6398f8ed886e639b0dd50d3c90-d_640",
        thumbnail_width: 640,
        thumbnail_height: 360,
        thumbnail_url_with_play_button:
          "https://i.vimeocdn.com/filter/overlay?src0=https%3A%2F%2Fi.vimeocdn.com%2Fvideo%2F452001751-d_640&src1=http%3A%2F%2Ff.vimeocdn.com%2Fp%2Fimages%2Fcrawler_play.png",
        upload_date: "2013-10-15 14:08:29",
        video_id: Number(id) || 76979871,
        uri: `/videos/${id}`,
      };
    case "soundcloud":
      return {
        version: 1,
        type: "rich",
        provider_name: "SoundCloud",
        provider_url: "https://soundcloud.com",
        height: 400,
        width: "100%",
        title: "Flickermood by Forss",
        description: "From the Soulhack album, recently featured in this ad.",
        thumbnail_url: "https://i1.sndcdn.com/artworks-000067273316-smsiqx-t500x500.jpg",
        html: '<iframe width="100%" height="400" scrolling="no" frameborder="no" src="https://w.soundcloud.com/player/?visual=true&url=https%3A%2F%2Fapi.soundcloud.com%2Ftracks%2F293&show_artwork=true"></iframe>',
        author_name: "Forss",
        author_url: "https://soundcloud.com/forss",
      };
    case "spotify":
      return {
        html: `<iframe style="border-radius: 12px" width="100%" height="152" title="Spotify Embed: Never Gonna Give You Up" frameborder="0" allowfullscreen allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" loading="lazy" src="https://open.spotify.com/embed/track/${id}?utm_source=oembed"></iframe>`,
        iframe_url: `https://open.spotify.com/embed/track/${id}?utm_source=oembed`,
        width: 456,
        height: 152,
        version: "1.0",
        provider_name: "Spotify",
        provider_url: "https://spotify.com",
        type: "rich",
        title: "Never Gonna Give You Up",
        thumbnail_url: "https://image-cdn-ak.spotifycdn.com/image/ab67616d00001e0215ebbedaacef61af244262a8",
        thumbnail_width: 300,
        thumbnail_height: 300,
      };
    case "twitch":
      return {
        version: "1.0",
        type: "video",
        twitch_type: "vod",
        title: "Speedrun marathon, day 3",
        author_name: "GamesDoneQuick",
        author_url: "https://www.twitch.tv/gamesdonequick",
        provider_name: "Twitch",
        provider_url: "https://www.twitch.tv/",
        thumbnail_url: `https://static-cdn.jtvnw.net/cf_vods/d2nvs31859zcd8/${id}/thumb/thumb0-640x360.jpg`,
        video_length: 5426,
        html: `<iframe src="https://player.twitch.tv/?%21branding=&amp;autoplay=false&amp;video=v${id}" width="500" height="281" frameborder="0" scrolling="no" allowfullscreen></iframe>`,
        width: 500,
        height: 281,
        request_url: link,
      };
    case "tiktok":
      return {
        version: "1.0",
        type: "video",
        title: "Scramble up ur name & I’ll try to guess it😍❤️ #foryoupage #petsoftiktok #aesthetic",
        author_url: "https://www.tiktok.com/@scout2015",
        author_name: "Scout, Suki & Stella",
        width: "100%",
        height: "100%",
        html: `<blockquote class="tiktok-embed" cite="https://www.tiktok.com/@scout2015/video/${id}" data-video-id="${id}" data-embed-from="oembed" style="max-width: 605px;min-width: 325px;" > <section> <a target="_blank" title="@scout2015" href="https://www.tiktok.com/@scout2015?refer=embed">@scout2015</a> <p>Scramble up ur name & I’ll try to guess it😍❤️</p> </section> </blockquote> <script async src="https://www.tiktok.com/embed.js"></script>`,
        thumbnail_width: 576,
        thumbnail_height: 1024,
        thumbnail_url:
          "https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/06kv6rfcesljdjr45ukb0000d844090v0200000a05?x-expires=1700000000&x-signature=abc",
        provider_url: "https://www.tiktok.com",
        provider_name: "TikTok",
        author_unique_id: "scout2015",
        embed_product_id: id,
        embed_type: "video",
      };
    case "wistia":
      return {
        version: "1.0",
        type: "video",
        html: `<iframe src="https://fast.wistia.net/embed/iframe/${id}" title="Brendan - Make It Clap Video" allow="autoplay; fullscreen" allowtransparency="true" frameborder="0" scrolling="no" class="wistia_embed" name="wistia_embed" msallowfullscreen width="960" height="540"></iframe>\n<script src="https://fast.wistia.net/assets/external/E-v1.js" async></script>`,
        width: 960,
        height: 540,
        provider_name: "Wistia, Inc.",
        provider_url: "https://wistia.com",
        title: "Brendan - Make It Clap",
        thumbnail_url: "https://embed-ssl.wistia.com/deliveries/2d2c14e15face1e0cc7aac98ebd5b6f040b950b5.jpg?image_crop_resized=960x540",
        thumbnail_width: 960,
        thumbnail_height: 540,
        player_color: "54bbff",
        duration: 16.43,
      };
    case "mux":
      return {
        type: "video",
        version: "1.0",
        provider_name: "Mux",
        provider_url: "https://www.mux.com",
        title: "Big Buck Bunny",
        width: 1920,
        height: 1080,
        thumbnail_url: `https://image.mux.com/${id}/thumbnail.webp`,
        thumbnail_width: 1920,
        thumbnail_height: 1080,
        html: `<iframe src="https://player.mux.com/${id}" style="aspect-ratio: 16/9; width: 100%; border: 0;" allow="accelerometer; gyroscope; autoplay; encrypted-media; picture-in-picture;" allowfullscreen="true"></iframe>`,
      };
  }
}

/** Where the program serves: OEMBED_PROVIDERS_PORT, else 3190. */
export function oembedProvidersPort(): number {
  return Number(process.env.OEMBED_PROVIDERS_PORT ?? 3190);
}

/** OEMBED_ENDPOINT_<PROVIDER> for every provider, pointing at local servers at `origin`. */
export function oembedProvidersEnv(origin: string): Record<string, string> {
  return Object.fromEntries(providerKeys.map((key) => [`OEMBED_ENDPOINT_${key.toUpperCase()}`, `${origin}/${key}/oembed`]));
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startOembedProviders(options: { port?: number } = {}): Promise<OembedProviders> {
  const requests: RecordedRequest[] = [];
  const abandoned: OembedProviders["abandoned"] = [];
  const elsewhereRequests: { method: string; path: string }[] = [];
  const modes = new Map<OembedProviderKey | "all", ProviderMode>([["all", "ok"]]);
  const sockets = new Set<Socket>();

  // "localhost" rather than 127.0.0.1: another host name, as a provider's redirect elsewhere would be
  const elsewhere = http.createServer((req, res) => {
    elsewhereRequests.push({ method: req.method ?? "", path: req.url ?? "" });
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(realAnswer("youtube", "stolen")));
  });
  const elsewherePort = await listen(elsewhere, 0);
  const elsewhereOrigin = `http://localhost:${elsewherePort}`;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const provider = /^\/([a-z]+)\/oembed$/.exec(url.pathname)?.[1] as OembedProviderKey | undefined;
    const link = url.searchParams.get("url");
    requests.push({
      provider: provider ?? "",
      method: req.method ?? "",
      path: url.pathname,
      url: link,
      format: url.searchParams.get("format"),
      host: req.headers.host,
    });
    if (!provider || !providerKeys.includes(provider) || !link) {
      res.writeHead(400, { "Content-Type": "text/plain" }).end("Bad Request");
      return;
    }
    const id = videoId(link).toLowerCase();
    const mode = modeWords.find((word) => id.includes(word)) ?? modes.get(provider) ?? modes.get("all")!;
    res.on("close", () => {
      if (!res.writableFinished) abandoned.push({ provider, mode });
    });
    switch (mode) {
      case "slow":
        return; // answer nothing; the connection stays open until the caller leaves
      case "reset":
        req.socket.destroy();
        return;
      case "missing":
        res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" }).end("Not Found");
        return;
      case "notjson":
        res
          .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
          .end("<!doctype html><title>Sign in</title><p>Please sign in</p>");
        return;
      case "redirect":
        res.writeHead(302, { Location: `${elsewhereOrigin}/${provider}/oembed${url.search}` }).end();
        return;
      case "huge": {
        // no Content-Length: only reading the stream can tell how big it is
        res.writeHead(200, { "Content-Type": "application/json" });
        const chunk = "x".repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && !res.destroyed) {
            sent++;
            const more = res.write(sent === 1 ? `{"title":"${chunk}` : chunk);
            if (!more) return void res.once("drain", pump);
          }
          if (!res.destroyed) res.end(`","type":"video","version":"1.0"}`);
        };
        pump();
        return;
      }
      default: {
        const answer = realAnswer(provider, link);
        if (mode === "html") Object.assign(answer, { title: htmlTitle, author_name: htmlAuthor });
        res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(answer));
      }
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await listen(server, options.port ?? 0);
  const origin = `http://127.0.0.1:${port}`;
  const endpoints = Object.fromEntries(providerKeys.map((key) => [key, `${origin}/${key}/oembed`])) as Record<OembedProviderKey, string>;
  return {
    origin,
    endpoints,
    env: oembedProvidersEnv(origin),
    requests,
    elsewhere: { origin: elsewhereOrigin, requests: elsewhereRequests },
    abandoned,
    setMode(mode, provider) {
      if (provider) modes.set(provider, mode);
      else {
        modes.clear();
        modes.set("all", mode);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      elsewhere.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => elsewhere.close(resolve))]);
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const providers = await startOembedProviders({ port: Number(process.argv[2] ?? oembedProvidersPort()) });
  console.log(`# Local oEmbed providers on ${providers.origin}. For the embed function, add to supabase/functions/.env:`);
  for (const [name, value] of Object.entries(providers.env)) console.log(`${name}=${value}`);
  const stop = () => void providers.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
