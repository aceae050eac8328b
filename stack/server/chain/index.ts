import { createHash } from "node:crypto";
import { type ServiceRoute, sendJson } from "../gateway.ts";

/** An ENS name as the seed and tests use them: lowercase labels of letters, digits and hyphens. */
const avatarPath = /^\/avatars\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.svg$/;

/** A round avatar with the name's first letter, in a colour derived from the name. */
function avatarSvg(name: string): string {
  const hue = createHash("sha256").update(name).digest()[0] * (360 / 256);
  const letter = name[0].toUpperCase();
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${name}">`,
    `<circle cx="64" cy="64" r="64" fill="hsl(${hue.toFixed(0)} 55% 42%)"/>`,
    `<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="64" font-weight="600" fill="#fff">${letter}</text>`,
    "</svg>",
  ].join("");
}

/**
 * GET /chain/v1/avatars/<ens name>.svg: the images the local chain's `avatar` text records point
 * at, so names resolve to avatars without the internet. Public, like a public storage bucket.
 */
export function createChainRoute(): ServiceRoute {
  return {
    prefix: "/chain/v1",
    open: (path) => avatarPath.test(path.split("?")[0]),
    handler: (req, res, ctx) => {
      const match = avatarPath.exec(ctx.url.pathname.slice("/chain/v1".length));
      if (!match) return sendJson(res, 404, { message: "Not found: the chain route serves /chain/v1/avatars/<name>.svg" });
      if (req.method === "OPTIONS") return void res.writeHead(204).end();
      if (req.method !== "GET" && req.method !== "HEAD")
        return sendJson(res, 405, { message: "Method not allowed" }, { Allow: "GET, HEAD" });
      const body = avatarSvg(match[1]);
      res.writeHead(200, {
        "Content-Type": "image/svg+xml",
        "Content-Length": Buffer.byteLength(body),
        "Cache-Control": "public, max-age=3600",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    },
  };
}
