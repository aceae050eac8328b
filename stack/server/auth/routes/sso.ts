// GoTrue's /sso routes (SAML 2.0): off, as `supabase start` runs them, for every path and method.
import { samlDisabled } from "../disabled.ts";
import type { RouteGroup } from "../service.ts";

export const ssoRoutes: RouteGroup = { below: { "/sso": samlDisabled } };
