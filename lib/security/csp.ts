// The Content-Security-Policy: what pages may load, embed and call, and nothing else. proxy.ts sets
// it on every page with a fresh nonce; Next.js reads the nonce from the request's header and puts
// it on its own scripts, and 'strict-dynamic' lets those scripts load the app's chunks.

/** Where react-player's players live: their iframes, streams and thumbnails. */
const mediaProviders = {
  frames: [
    "https://www.youtube.com",
    "https://www.youtube-nocookie.com",
    "https://player.vimeo.com",
    "https://w.soundcloud.com",
    "https://open.spotify.com",
    "https://player.twitch.tv",
    "https://embed.twitch.tv",
    "https://www.tiktok.com",
    "https://fast.wistia.net",
    "https://fast.wistia.com",
    "https://geo.dailymotion.com",
    "https://www.dailymotion.com",
    "https://www.facebook.com",
    "https://cdnapisec.kaltura.com",
  ],
  media: ["https://stream.mux.com", "https://*.wistia.com", "https://*.wistia.net", "https://*.kaltura.com"],
  images: [
    "https://i.ytimg.com",
    "https://i.vimeocdn.com",
    "https://image.mux.com",
    "https://*.wistia.com",
    "https://*.sndcdn.com",
    "https://i.scdn.co",
  ],
  // Players that fetch their streams and report playback themselves (HLS manifests, Mux Data).
  connect: ["https://stream.mux.com", "https://*.litix.io", "https://*.wistia.com", "https://*.kaltura.com"],
} as const;

/** thirdweb's RPC edge and its telemetry (c.thirdweb.com), which chain reads and wallet sign-in call. */
const thirdwebHosts = ["https://*.thirdweb.com", "https://*.rpc.thirdweb.com"] as const;

export interface CspSettings {
  nonce: string;
  /** NEXT_PUBLIC_SUPABASE_URL: REST, Auth, Storage (avatars) and its Realtime websocket. */
  supabaseUrl: string;
  /** Extra chain RPC endpoints, e.g. NEXT_PUBLIC_CHAIN_RPC_31337 for the local chain. */
  chainRpcUrls?: readonly (string | undefined)[];
  /** `next dev` evaluates code for its overlay and fast refresh. */
  development?: boolean;
  /** Who may frame the page: no one, or any site (the embeddable player, /embed/…). */
  framing?: "none" | "anyone";
}

/** An http(s) URL's origin and the matching websocket origin; nothing for a value that is not a URL. */
function withWebsocket(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return [];
    return [url.origin, `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`];
  } catch {
    return [];
  }
}

const originOf = (value: string | undefined) => withWebsocket(value).slice(0, 1);

export function contentSecurityPolicy({
  nonce,
  supabaseUrl,
  chainRpcUrls = [],
  development = false,
  framing = "none",
}: CspSettings): string {
  const supabase = originOf(supabaseUrl);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    // Style attributes (React's style prop, Tailwind's arbitrary values at runtime) need this; scripts never do.
    "style-src": ["'self'", "'unsafe-inline'"],
    // ENS avatars are whatever https URL a name's owner recorded (IPFS gateways, NFT CDNs, their own
    // sites), so images alone may come from any https host; the local chain's avatars are served by
    // the Supabase URL. Nothing else a page loads or calls is that open.
    "img-src": ["'self'", "data:", "blob:", "https:", ...supabase, ...mediaProviders.images],
    "font-src": ["'self'", "data:"],
    // A post may link a plain audio or video file on any https host (react-player plays it in an
    // <audio>/<video> element), so media, like images, may come from any https host.
    "media-src": ["'self'", "blob:", "https:", ...supabase, ...mediaProviders.media],
    "frame-src": [...mediaProviders.frames],
    "connect-src": [
      "'self'",
      ...withWebsocket(supabaseUrl),
      ...thirdwebHosts,
      ...chainRpcUrls.flatMap(withWebsocket),
      ...mediaProviders.connect,
    ],
    // The service worker (public/sw.js) and the web app manifest (app/manifest.ts) are the site's own.
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": [framing === "anyone" ? "*" : "'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(" ")}`)
    .join("; ");
}

/** 128 random bits, base64: a nonce no page can guess. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
