import type { ServerContext } from "../context.ts";
import { type ServiceRoute, sendJson } from "../gateway.ts";
import { publicJwks } from "../jwt.ts";
import { type Inbox, inbox as sharedInbox } from "../inbox/store.ts";
import { admin, invite } from "./admin.ts";
import { otp, recover, resend } from "./email-requests.ts";
import { AuthError, sendAuthError } from "./errors.ts";
import { factors } from "./factors.ts";
import { Mailer } from "./mail.ts";
import { WindowLimiter } from "./rate-limit.ts";
import { type AuthService, type Call, type Handler, requireUser } from "./service.ts";
import { oauthServerDisabled, passkeysDisabled, samlDisabled } from "./disabled.ts";
import { linkIdentity, unlinkIdentity } from "./identities.ts";
import { reauthenticate } from "./reauthenticate.ts";
import { authSettings } from "./settings.ts";
import { signup } from "./signup.ts";
import { token } from "./token.ts";
import { authorize, getUser, health, logoutRoute, oauthCallback, settingsRoute, updateUser } from "./user-routes.ts";
import { verifyGet, verifyPost } from "./verify-routes.ts";


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
  "/reauthenticate": { GET: reauthenticate },
  "/.well-known/oauth-authorization-server": { GET: oauthServerDisabled },
  // The signing keys' public parts (none on the legacy HS256 secret: auth-js then asks GET /user).
  "/.well-known/jwks.json": { GET: async (_svc, call) => sendJson(call.res, 200, publicJwks(), { "Cache-Control": "public, max-age=600" }) },
};

/** Features switched off as a whole: every path below the prefix, for every method. */
const disabledPrefixes: [prefix: string, handler: Handler][] = [
  ["/sso", samlDisabled],
  ["/passkeys", passkeysDisabled],
  ["/oauth", oauthServerDisabled],
];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** GET /user/identities/authorize and DELETE /user/identities/{id}. */
async function identities(svc: AuthService, call: Call, rest: string): Promise<void> {
  const method = call.req.method ?? "GET";
  if (rest === "/authorize" && (method === "GET" || method === "HEAD")) return await linkIdentity(svc, call);
  const id = /^\/([^/]+)$/.exec(rest)?.[1];
  if (id && method === "DELETE") return await unlinkIdentity(svc, call, decodeURIComponent(id));
  // GoTrue authenticates and checks manual linking before routing below /user/identities.
  await requireUser(svc, call);
  if (!svc.settings.enableManualLinking) throw new AuthError(404, "manual_linking_disabled", "Manual linking is disabled");
  throw new AuthError(404, "not_found", "Not Found");
}

/** The Auth service (GoTrue-compatible) at /auth/v1. `emails` defaults to the inbox the stack serves. */
export async function createAuthRoute(ctx: ServerContext, emails: Inbox = sharedInbox): Promise<ServiceRoute> {
  const settings = authSettings(ctx.config);
  const fiveMinutes = 300;
  const svc: AuthService = {
    pool: ctx.adminPool,
    settings,
    mailer: new Mailer(settings, emails),
    limits: {
      signInSignUps: new WindowLimiter(settings.rateLimit.signInSignUps, fiveMinutes, settings.rateLimitHeader),
      tokenRefresh: new WindowLimiter(settings.rateLimit.tokenRefresh, fiveMinutes, settings.rateLimitHeader),
      tokenVerifications: new WindowLimiter(settings.rateLimit.tokenVerifications, fiveMinutes, settings.rateLimitHeader),
      web3: new WindowLimiter(settings.rateLimit.web3, fiveMinutes, settings.rateLimitHeader),
      anonymousUsers: new WindowLimiter(settings.rateLimit.anonymousUsers, 3600, settings.rateLimitHeader),
    },
  };
  return {
    prefix: "/auth/v1",
    // `supabase start`'s gateway checks no apikey on /auth/v1: Kong only swaps a presented key
    // for its JWT; GoTrue itself decides what needs a bearer token.
    open: () => true,
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
        if (under(path, "/admin")) return await admin(svc, call, path.slice("/admin".length));
        if (under(path, "/factors")) return await factors(svc, call, path.slice("/factors".length));
        if (under(path, "/user/identities")) return await identities(svc, call, path.slice("/user/identities".length));
        if (under(path, "/user/oauth/grants")) {
          await requireUser(svc, call);
          return await oauthServerDisabled(svc, call);
        }
        const disabled = disabledPrefixes.find(([prefix]) => under(path, prefix));
        if (disabled) return await disabled[1](svc, call);
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
