import type { ServerContext } from "../context.ts";
import type { ServiceRoute } from "../gateway.ts";
import { type Inbox, inbox as sharedInbox } from "../inbox/store.ts";
import { admin, invite } from "./admin.ts";
import { otp, recover, resend } from "./email-requests.ts";
import { AuthError, sendAuthError } from "./errors.ts";
import { factors } from "./factors.ts";
import { Mailer } from "./mail.ts";
import { WindowLimiter } from "./rate-limit.ts";
import { type AuthService, type Call, type Handler, ok } from "./service.ts";
import { authSettings } from "./settings.ts";
import { signup } from "./signup.ts";
import { token } from "./token.ts";
import { authorize, getUser, health, logoutRoute, oauthCallback, settingsRoute, updateUser } from "./user-routes.ts";
import { verifyGet, verifyPost } from "./verify-routes.ts";

/** Paths Supabase's gateway lets through without an apikey: email links, OAuth callbacks, JWKS. */
const openPaths = new Set(["/verify", "/callback", "/authorize", "/.well-known/jwks.json"]);

const routes: Record<string, Partial<Record<string, Handler>>> = {
  "/health": { GET: health },
  "/settings": { GET: settingsRoute },
  "/signup": { POST: signup },
  "/token": { POST: token },
  "/otp": { POST: otp },
  "/magiclink": { POST: otp },
  "/recover": { POST: recover },
  "/resend": { POST: resend },
  "/invite": { POST: invite },
  "/authorize": { GET: authorize },
  "/callback": { GET: oauthCallback, POST: oauthCallback },
  "/verify": { GET: verifyGet, POST: verifyPost },
  "/user": { GET: getUser, PUT: updateUser },
  "/logout": { POST: logoutRoute },
  // HS256 projects publish no public keys: auth-js then verifies tokens with GET /user.
  "/.well-known/jwks.json": { GET: async (_svc, call) => ok(call, { keys: [] }) },
};

/** The Auth service (GoTrue-compatible) at /auth/v1. `emails` defaults to the inbox the stack serves. */
export async function createAuthRoute(ctx: ServerContext, emails: Inbox = sharedInbox): Promise<ServiceRoute> {
  const settings = authSettings(ctx.config);
  const fiveMinutes = 300;
  const svc: AuthService = {
    pool: ctx.adminPool,
    settings,
    mailer: new Mailer(settings, emails),
    limits: {
      signInSignUps: new WindowLimiter(settings.rateLimit.signInSignUps, fiveMinutes),
      tokenRefresh: new WindowLimiter(settings.rateLimit.tokenRefresh, fiveMinutes),
      tokenVerifications: new WindowLimiter(settings.rateLimit.tokenVerifications, fiveMinutes),
      web3: new WindowLimiter(settings.rateLimit.web3, fiveMinutes),
      anonymousUsers: new WindowLimiter(settings.rateLimit.anonymousUsers, 3600),
    },
  };
  return {
    prefix: "/auth/v1",
    open: (path) => openPaths.has(path.replace(/\/+$/, "") || "/"),
    async handler(req, res, gw) {
      const url = gw.url;
      const path = url.pathname.slice("/auth/v1".length).replace(/\/+$/, "") || "/";
      const call: Call = { req, res, gw, url };
      const method = req.method ?? "GET";
      try {
        if (method === "OPTIONS") {
          res.writeHead(200, { "Content-Length": 0 });
          return void res.end();
        }
        if (path === "/admin" || path.startsWith("/admin/")) return await admin(svc, call, path.slice("/admin".length));
        if (path === "/factors" || path.startsWith("/factors/")) return await factors(svc, call, path.slice("/factors".length));
        const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
        if (!route) throw new AuthError(404, "not_found", "Not Found");
        const handler = Object.hasOwn(route, method) ? route[method] : method === "HEAD" ? route.GET : undefined;
        if (!handler) throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
        await handler(svc, call);
      } catch (error) {
        if (res.headersSent) return void res.end();
        sendAuthError(req, res, error);
      }
    },
  };
}
