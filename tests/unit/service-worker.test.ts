// The service worker's rules (public/sw.js): which requests it answers from its cache, which pages it
// covers with the offline page, and which it leaves alone. The worker file is plain JavaScript the
// browser runs as it is; its rules are plain functions defined before the worker's own code, which
// runs only in a service worker's global scope. Here they are taken from the file itself and called.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { appBuildId } from "../../lib/pwa/build-id";
import { offlinePath } from "../../lib/pwa/offline";
import { serviceWorkerScript } from "../../lib/pwa/register-script";

type Route = "asset" | "page" | "network";
interface RequestFacts {
  url: string;
  method: string;
  mode: string;
  destination: string;
  range: boolean;
}

const source = readFileSync(path.join(import.meta.dirname, "../../public/sw.js"), "utf8");
const rules = new Function(`${source}\nreturn { routeRequest, shellAssetsIn, cacheNameFor, OFFLINE_PATH };`)() as {
  routeRequest: (request: RequestFacts, origin: string) => Route;
  shellAssetsIn: (html: string) => string[];
  cacheNameFor: (scriptUrl: string) => string;
  OFFLINE_PATH: string;
};

const origin = "https://cuepoint.example";
const supabase = "https://abcd.supabase.co";

/** A script or fetch request for `url` (relative to the site), unless told otherwise. */
function route(url: string, facts: Partial<RequestFacts> = {}): Route {
  return rules.routeRequest(
    { url: new URL(url, origin).href, method: "GET", mode: "cors", destination: "", range: false, ...facts },
    origin,
  );
}

describe("the service worker's routing rule", () => {
  test("the build's static files and the app's icons are kept", () => {
    expect(route("/_next/static/chunks/0a1b2c3d._.js", { mode: "no-cors", destination: "script" })).toBe("asset");
    expect(route("/_next/static/chunks/4e5f.css", { mode: "no-cors", destination: "style" })).toBe("asset");
    expect(route("/_next/static/media/inter.0a1b2c.woff2", { destination: "font" })).toBe("asset");
    expect(route("/icons/maskable-512.png", { destination: "image" })).toBe("asset");
    expect(route("/apple-icon.png?3a4b5c", { destination: "image" })).toBe("asset");
    expect(route("/icon.svg?3a4b5c", { destination: "image" })).toBe("asset");
  });

  test("every same-origin page goes to the network, with the offline page when it can't", () => {
    for (const page of ["/", "/r/late-night/p/9b1c2d3e-0000-4000-8000-000000000000", "/account", "/auth/callback?code=x", "/offline"])
      expect(route(page, { mode: "navigate", destination: "document" }), page).toBe("page");
  });

  test("the backend's answers, whatever they are, are never touched: another origin", () => {
    for (const call of [
      "/rest/v1/posts?select=*",
      "/auth/v1/token?grant_type=refresh_token",
      "/storage/v1/object/public/media/a.mp3",
      "/functions/v1/embed",
      "/realtime/v1/websocket",
    ])
      expect(route(new URL(call, supabase).href), call).toBe("network");
    // Not even a page of another site the app links to.
    expect(route("https://www.youtube.com/watch?v=abc", { mode: "navigate", destination: "document" })).toBe("network");
  });

  test("the same paths on the site's own origin aren't kept either", () => {
    for (const call of ["/rest/v1/posts", "/auth/v1/user", "/storage/v1/object/media/a.png", "/realtime/v1", "/functions/v1/hello"])
      expect(route(call), call).toBe("network");
  });

  test("route handlers, Server Components payloads and the manifest go to the network", () => {
    expect(route("/oembed?url=x&format=json")).toBe("network");
    expect(route("/og/r/late-night", { destination: "image" })).toBe("network");
    expect(route("/r/late-night?_rsc=1x2y3", { destination: "" })).toBe("network");
    // A Server Components payload is never kept, even under a static-looking path.
    expect(route("/_next/static/chunks/page.js?_rsc=1x2y")).toBe("network");
    expect(route("/manifest.webmanifest", { destination: "manifest" })).toBe("network");
    expect(route("/_next/image?url=%2Favatar.png&w=64&q=75", { destination: "image" })).toBe("network");
  });

  test("media is never kept, by destination, by file or as a byte range", () => {
    expect(route("/_next/static/media/intro.mp3", { destination: "audio" })).toBe("network");
    expect(route("/_next/static/media/clip.mp4", { destination: "" })).toBe("network");
    expect(route("/_next/static/media/clip.webm", { destination: "video", range: true })).toBe("network");
    expect(route("/_next/static/chunks/big.js", { range: true })).toBe("network");
    expect(route("/_next/static/media/subs.vtt", { destination: "track" })).toBe("network");
  });

  test("only GET: a form post or a server action is the network's", () => {
    expect(route("/login", { method: "POST", mode: "navigate", destination: "document" })).toBe("network");
    expect(route("/_next/static/chunks/a.js", { method: "HEAD" })).toBe("network");
  });
});

describe("the offline page's files", () => {
  test("are every static script, style and font its HTML names, each once, and nothing else", () => {
    const html = [
      '<link rel="stylesheet" href="/_next/static/chunks/0f1e2d.css" data-precedence="next"/>',
      '<link rel="preload" as="font" href="/_next/static/media/a1b2-s.p.woff2" crossorigin=""/>',
      '<script src="/_next/static/chunks/turbopack-0a1b.js" async="" nonce="abc"></script>',
      '<script src="/_next/static/chunks/0a1b2c3d._.js" async=""></script>',
      // The same chunk named again, inside the Server Components payload's escaped strings.
      '<script nonce="abc">self.__next_f.push([1,"2:I[\\"/_next/static/chunks/0a1b2c3d._.js\\",\\"/_next/static/chunks/9z8y.js\\"]"])</script>',
      // Not files: the static folder itself, a page, an image the optimiser serves.
      '<script>var base="/_next/static/chunks/";</script><a href="/r/late-night">Late night</a><img src="/_next/image?url=x"/>',
    ].join("");
    expect(rules.shellAssetsIn(html).sort()).toEqual(
      [
        "/_next/static/chunks/0f1e2d.css",
        "/_next/static/media/a1b2-s.p.woff2",
        "/_next/static/chunks/turbopack-0a1b.js",
        "/_next/static/chunks/0a1b2c3d._.js",
        "/_next/static/chunks/9z8y.js",
      ].sort(),
    );
  });

  test("the worker and the app name the same offline page", () => {
    expect(rules.OFFLINE_PATH).toBe(offlinePath);
  });
});

describe("the worker's cache", () => {
  test("is named by the build it was registered for, and a strange version names nothing", () => {
    expect(rules.cacheNameFor(`${origin}/sw.js?v=x8oPIbgRJOPynIJt5juyF`)).toBe("cuepoint-shell-x8oPIbgRJOPynIJt5juyF");
    expect(rules.cacheNameFor(`${origin}/sw.js`)).toBe("cuepoint-shell-unversioned");
    expect(rules.cacheNameFor(`${origin}/sw.js?v=${encodeURIComponent("../../x y")}`)).toBe("cuepoint-shell-unversioned");
  });
});

describe("the page's side", () => {
  test("outside a production build there is no build id, so the page removes any worker instead of registering one", () => {
    expect(process.env.NODE_ENV).not.toBe("production");
    expect(appBuildId()).toBeNull();
  });

  test("the inline script registers the worker named by the build, after load, and nothing else", () => {
    const script = serviceWorkerScript("x8oPIbgRJOPynIJt5juyF");
    expect(() => new Function(script)).not.toThrow();
    expect(script).toContain('register("/sw.js?v=x8oPIbgRJOPynIJt5juyF",{scope:"/",updateViaCache:"none"})');
    expect(script).toContain('addEventListener("load"');
    expect(rules.cacheNameFor(`${origin}/sw.js?v=x8oPIbgRJOPynIJt5juyF`)).toBe("cuepoint-shell-x8oPIbgRJOPynIJt5juyF");
    expect(script).not.toContain("unregister");
  });

  test("without a build id the inline script only removes workers; a strange id cannot close the script", () => {
    const dev = serviceWorkerScript(null);
    expect(() => new Function(dev)).not.toThrow();
    expect(dev).toContain("unregister");
    expect(dev).not.toContain(".register(");
    expect(serviceWorkerScript("</script><script>alert(1)")).not.toContain("</script>");
  });
});
