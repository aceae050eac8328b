import { describe, expect, test } from "vitest";
import { contentSecurityPolicy, createNonce } from "../../lib/security/csp";
import { staticSecurityHeaders } from "../../lib/security/headers";

/** The policy as directive → sources. */
function parse(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(";").map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const base = { nonce: "abc123==", supabaseUrl: "http://127.0.0.1:54321" };

describe("Content-Security-Policy", () => {
  test("scripts run only with this request's nonce (and what they load): no inline or eval in production", () => {
    const scripts = parse(contentSecurityPolicy(base))["script-src"];
    expect(scripts).toEqual(["'self'", "'nonce-abc123=='", "'strict-dynamic'"]);
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(parse(contentSecurityPolicy({ ...base, development: true }))["script-src"]).toContain("'unsafe-eval'");
  });

  test("the Supabase URL from config, and its websocket, for the API and Realtime; its storage for images and media", () => {
    const local = parse(contentSecurityPolicy(base));
    expect(local["connect-src"]).toEqual(expect.arrayContaining(["'self'", "http://127.0.0.1:54321", "ws://127.0.0.1:54321"]));
    expect(local["img-src"]).toContain("http://127.0.0.1:54321");
    expect(local["media-src"]).toContain("http://127.0.0.1:54321");
    const hosted = parse(contentSecurityPolicy({ ...base, supabaseUrl: "https://abcd.supabase.co/" }));
    expect(hosted["connect-src"]).toEqual(expect.arrayContaining(["https://abcd.supabase.co", "wss://abcd.supabase.co"]));
    expect(hosted["connect-src"]).not.toContain("http://127.0.0.1:54321");
  });

  test("chain RPCs: thirdweb's hosts always, a local chain RPC only when configured", () => {
    const without = parse(contentSecurityPolicy(base))["connect-src"];
    expect(without).toEqual(expect.arrayContaining(["https://*.thirdweb.com", "https://*.rpc.thirdweb.com"]));
    expect(without.some((source) => source.includes("8545"))).toBe(false);
    const withChain = parse(contentSecurityPolicy({ ...base, chainRpcUrls: ["http://127.0.0.1:8545", undefined, "not a url"] }))[
      "connect-src"
    ];
    expect(withChain).toEqual(expect.arrayContaining(["http://127.0.0.1:8545", "ws://127.0.0.1:8545"]));
    expect(withChain).not.toContain("not");
  });

  test("frames: the media players react-player embeds, nothing else; nobody may frame the app", () => {
    const policy = parse(contentSecurityPolicy(base));
    expect(policy["frame-src"]).toEqual(
      expect.arrayContaining([
        "https://www.youtube.com",
        "https://www.youtube-nocookie.com",
        "https://player.vimeo.com",
        "https://w.soundcloud.com",
        "https://open.spotify.com",
        "https://player.twitch.tv",
        "https://www.tiktok.com",
        "https://fast.wistia.net",
        "https://geo.dailymotion.com",
        "https://www.facebook.com",
        "https://cdnapisec.kaltura.com",
      ]),
    );
    expect(policy["frame-src"]).not.toContain("*");
    expect(policy["frame-src"]).not.toContain("https:");
    expect(policy["img-src"]).toContain("https://i.ytimg.com");
    // ENS avatars live on any https host; plain http ones (other than the Supabase URL) do not load.
    expect(policy["img-src"]).toContain("https:");
    expect(policy["img-src"]).not.toContain("http:");
    expect(policy["media-src"]).toContain("https://stream.mux.com");
    // plain file links from any https host play; http ones do not
    expect(policy["media-src"]).toContain("https:");
    expect(policy["media-src"]).not.toContain("http:");
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'self'"]);
    expect(policy["form-action"]).toEqual(["'self'"]);
    // The service worker and the app manifest come from the site itself, nowhere else.
    expect(policy["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(policy["manifest-src"]).toEqual(["'self'"]);
  });

  test("the embeddable player may be framed by any site, and keeps the rest of the policy, its nonce included", () => {
    const framed = parse(contentSecurityPolicy({ ...base, framing: "anyone" }));
    const usual = parse(contentSecurityPolicy(base));
    expect(framed["frame-ancestors"]).toEqual(["*"]);
    expect(usual["frame-ancestors"]).toEqual(["'none'"]);
    expect({ ...framed, "frame-ancestors": usual["frame-ancestors"] }).toEqual(usual);
    expect(framed["script-src"]).toContain("'nonce-abc123=='");
  });

  test("nonces are fresh and unguessable", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("the other security headers", () => {
  const asObject = (production: boolean) => Object.fromEntries(staticSecurityHeaders(production).map(({ key, value }) => [key, value]));

  test("on every response", () => {
    expect(asObject(false)).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Permissions-Policy": expect.stringContaining("camera=()"),
      "X-Frame-Options": "DENY",
    });
  });

  test("the embeddable player's pages alone leave out X-Frame-Options (their policy's frame-ancestors decides)", () => {
    const framable = Object.fromEntries(staticSecurityHeaders(false, { framable: true }).map(({ key, value }) => [key, value]));
    expect(framable).not.toHaveProperty("X-Frame-Options");
    const rest = asObject(false);
    delete rest["X-Frame-Options"];
    expect(framable).toEqual(rest);
  });

  test("HSTS only in production", () => {
    expect(asObject(false)).not.toHaveProperty("Strict-Transport-Security");
    expect(asObject(true)["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}; includeSubDomains/);
  });
});
