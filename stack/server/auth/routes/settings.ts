// GoTrue's /health and /settings, and the signing keys' public parts at /.well-known/jwks.json.
import { sendJson } from "../../gateway.ts";
import { publicJwks } from "../../jwt.ts";
import { type AuthService, type Call, type RouteGroup, ok } from "../service.ts";
import { publicSettings } from "../settings.ts";

async function health(_svc: AuthService, call: Call): Promise<void> {
  ok(call, { version: "v2.180.0", name: "GoTrue", description: "GoTrue is a user registration and authentication API" });
}

/** GET /settings: which providers are on. */
async function settings(svc: AuthService, call: Call): Promise<void> {
  ok(call, publicSettings(svc.settings));
}

/** None on the legacy HS256 secret: auth-js then asks GET /user. */
async function jwks(_svc: AuthService, call: Call): Promise<void> {
  sendJson(call.res, 200, publicJwks(), { "Cache-Control": "public, max-age=600" });
}

export const settingsRoutes: RouteGroup = {
  paths: { "/health": { GET: health }, "/settings": { GET: settings }, "/.well-known/jwks.json": { GET: jwks } },
};
