import type { ServerContext } from "../context.ts";
import type { ServiceRoute } from "../gateway.ts";
import { type Inbox, inbox as sharedInbox } from "../inbox/store.ts";
import { AuthError, sendAuthError } from "./errors.ts";
import { Mailer } from "./mail.ts";
import { WindowLimiter } from "./rate-limit.ts";
import { adminRoutes } from "./routes/admin.ts";
import { disabledRoutes } from "./routes/disabled.ts";
import { externalRoutes } from "./routes/external.ts";
import { factorRoutes } from "./routes/factors.ts";
import { logoutRoutes } from "./routes/logout.ts";
import { otpRoutes } from "./routes/otp.ts";
import { passkeyRoutes } from "./routes/passkeys.ts";
import { settingsRoutes } from "./routes/settings.ts";
import { signupRoutes } from "./routes/signup.ts";
import { ssoRoutes } from "./routes/sso.ts";
import { tokenRoutes } from "./routes/token.ts";
import { userRoutes } from "./routes/user.ts";
import { verifyRoutes } from "./routes/verify.ts";
import type { AuthService, Call, PrefixHandler, RouteGroup, Routes } from "./service.ts";
import { authSettings } from "./settings.ts";

/** GoTrue's route groups (its internal/api/api.go), one module each under routes/. */
const groups: RouteGroup[] = [
  settingsRoutes,
  signupRoutes,
  tokenRoutes,
  verifyRoutes,
  userRoutes,
  factorRoutes,
  passkeyRoutes,
  adminRoutes,
  otpRoutes,
  logoutRoutes,
  externalRoutes,
  ssoRoutes,
  disabledRoutes,
];
const paths: Routes = Object.assign({}, ...groups.map((group) => group.paths ?? {}));
const prefixes: [string, PrefixHandler][] = groups.flatMap((group) => Object.entries(group.below ?? {}));

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Finds the handler for a path: a group's whole prefix first, then its exact paths. */
async function route(svc: AuthService, call: Call, path: string, method: string): Promise<void> {
  const prefix = prefixes.find(([candidate]) => under(path, candidate));
  if (prefix) return await prefix[1](svc, call, path.slice(prefix[0].length));
  const handlers = Object.hasOwn(paths, path) ? paths[path] : undefined;
  if (!handlers) throw new AuthError(404, "not_found", "Not Found");
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : method === "HEAD" ? handlers.GET : undefined;
  if (!handler) throw new AuthError(405, "method_not_allowed", "Method Not Allowed");
  await handler(svc, call);
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
      const method = req.method ?? "GET";
      try {
        if (method === "OPTIONS") {
          res.writeHead(200, { "Content-Length": 0 });
          return void res.end();
        }
        await route(svc, { req, res, gw, url }, path, method);
      } catch (error) {
        if (res.headersSent) return void res.end();
        sendAuthError(req, res, error);
      }
    },
  };
}
