// The fixed allow-list of oEmbed providers the embed function may ask about a link: each
// provider's hosts, the link shapes it answers for, and its real oEmbed endpoint. The function
// fetches only `<endpoint>?url=<link>&format=json` — the host always comes from this list (or from
// the operator's OEMBED_ENDPOINT_<KEY> setting), never from the link. Imports nothing (Deno reads
// it by relative path).

export interface OembedProvider {
  key: OembedProviderKey;
  /** As people know it; used in messages ("We couldn't reach YouTube …"). */
  name: string;
  endpoint: string;
  /** Exact host names (lowercase) whose links this provider describes. */
  hosts: readonly string[];
  /** Host names ending in one of these (one more label in front), e.g. an account's `acme.wistia.com`. */
  hostSuffixes?: readonly string[];
  /** Path plus query of the links it describes. */
  path: RegExp;
  /** The link to ask about, when the provider wants another form of it than the one pasted. */
  lookupUrl?: (url: URL) => string;
}

export type OembedProviderKey = "youtube" | "vimeo" | "soundcloud" | "spotify" | "twitch" | "tiktok" | "wistia" | "mux";

const id = "[A-Za-z0-9_-]";

export const oembedProviders: readonly OembedProvider[] = [
  {
    key: "youtube",
    name: "YouTube",
    endpoint: "https://www.youtube.com/oembed",
    hosts: ["www.youtube.com", "youtube.com", "m.youtube.com", "music.youtube.com", "youtu.be", "www.youtube-nocookie.com"],
    path: new RegExp(
      `^/(?:watch\\?(?:.*&)?v=${id}{11}|(?:shorts|live|embed|v)/${id}{11}|playlist\\?(?:.*&)?list=${id}+|${id}{11}(?:[?#]|$))`,
    ),
  },
  {
    key: "vimeo",
    name: "Vimeo",
    endpoint: "https://vimeo.com/api/oembed.json",
    hosts: ["vimeo.com", "www.vimeo.com", "player.vimeo.com"],
    path: /^\/(?:\d+|video\/\d+|channels\/[\w-]+\/\d+|groups\/[\w-]+\/videos\/\d+|showcase\/\d+(?:\/video\/\d+)?|[\w-]+\/[\w-]+)(?:[/?#]|$)/,
  },
  {
    key: "soundcloud",
    name: "SoundCloud",
    endpoint: "https://soundcloud.com/oembed",
    hosts: ["soundcloud.com", "www.soundcloud.com", "m.soundcloud.com", "on.soundcloud.com"],
    path: /^\/[\w-]+(?:\/[\w-]+){0,2}\/?(?:[?#]|$)/,
  },
  {
    key: "spotify",
    name: "Spotify",
    endpoint: "https://open.spotify.com/oembed",
    hosts: ["open.spotify.com"],
    path: /^\/(?:intl-[a-z-]+\/)?(?:track|album|playlist|episode|show|artist)\/[A-Za-z0-9]{22}(?:[/?#]|$)/,
  },
  {
    key: "twitch",
    name: "Twitch",
    // the endpoint oEmbed's provider registry lists for Twitch
    endpoint: "https://api.twitch.tv/v5/oembed",
    hosts: ["www.twitch.tv", "twitch.tv", "m.twitch.tv", "clips.twitch.tv"],
    path: /^\/(?:videos\/\d+|[A-Za-z0-9_]{3,25}(?:\/clip\/[\w-]+)?|[\w-]+)\/?(?:[?#]|$)/,
  },
  {
    key: "tiktok",
    name: "TikTok",
    endpoint: "https://www.tiktok.com/oembed",
    hosts: ["www.tiktok.com", "tiktok.com", "m.tiktok.com"],
    path: /^\/@[\w.-]+\/video\/\d+(?:[/?#]|$)/,
  },
  {
    key: "wistia",
    name: "Wistia",
    endpoint: "https://fast.wistia.com/oembed",
    hosts: ["fast.wistia.com", "fast.wistia.net", "wi.st"],
    hostSuffixes: [".wistia.com", ".wistia.net"],
    path: /^\/(?:medias|embed\/iframe|embed\/medias)\/[a-z0-9]{10}(?:\.jsonp?)?(?:[/?#]|$)/,
  },
  {
    key: "mux",
    name: "Mux",
    endpoint: "https://player.mux.com/oembed",
    hosts: ["player.mux.com", "stream.mux.com"],
    path: /^\/[A-Za-z0-9]{10,}(?:[?#]|$)/,
    // Mux describes its hosted player page; a stream link names the same playback ID
    lookupUrl: (url) => `https://player.mux.com${url.pathname}`,
  },
];

function servesHost(provider: OembedProvider, hostname: string): boolean {
  if (provider.hosts.includes(hostname)) return true;
  return (provider.hostSuffixes ?? []).some((suffix) => {
    if (!hostname.endsWith(suffix)) return false;
    return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(hostname.slice(0, -suffix.length));
  });
}

/**
 * The allow-listed provider that describes this link, or null. The link must already have passed
 * checkMediaUrl (https, public host, no credentials). Hosts are compared exactly, never searched
 * for: `https://www.youtube.com.evil.test/…` or `https://evil.test/youtube.com/…` belong to no one.
 */
export function findOembedProvider(url: URL): OembedProvider | null {
  if (url.protocol !== "https:" || url.port !== "" || url.username || url.password) return null;
  const hostname = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  const pathAndQuery = `${url.pathname}${url.search}`;
  return oembedProviders.find((provider) => servesHost(provider, hostname) && provider.path.test(pathAndQuery)) ?? null;
}

/** The environment variable that replaces a provider's endpoint, e.g. OEMBED_ENDPOINT_YOUTUBE. */
export function endpointVariable(key: OembedProviderKey): string {
  return `OEMBED_ENDPOINT_${key.toUpperCase()}`;
}

/**
 * `<endpoint>?url=<link>&format=json`: the link only ever travels as the value of the `url`
 * parameter (URLSearchParams encodes it), so it cannot change which host is asked.
 */
export function oembedRequestUrl(endpoint: string, provider: OembedProvider, url: URL): URL {
  const request = new URL(endpoint);
  request.searchParams.set("url", provider.lookupUrl ? provider.lookupUrl(url) : url.href);
  request.searchParams.set("format", "json");
  return request;
}
