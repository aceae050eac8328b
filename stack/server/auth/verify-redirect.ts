import { AuthError } from "./errors.ts";

// Where GET /verify sends the browser, built as GoTrue builds it: the session or the error in the
// URL fragment (with GoTrue's `sb` marker), PKCE's code and errors in the query.

/** Go's url.Values.Encode: keys sorted, form-encoded. */
function encode(params: Record<string, string>): string {
  const search = new URLSearchParams(params);
  search.sort();
  return search.toString();
}

/**
 * The redirect with `fragment` in the URL fragment, plus GoTrue's `sb` marker (how clients tell a
 * Supabase Auth redirect apart), keeping the target's query.
 */
export function withFragment(base: string, fragment: Record<string, string>): string {
  return `${base.split("#")[0]}#${encode({ ...fragment, sb: "" })}`;
}

/** The redirect with `params` merged into the query (re-encoded with sorted keys, as Go does). */
export function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  url.searchParams.sort();
  return url.href;
}

/** GoTrue's oauthErrorMap: the OAuth `error` an HTTP status becomes on a redirect. */
const oauthErrors: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/**
 * A failed link (GoTrue's prepErrorRedirectURL): the error in the fragment, and for PKCE links
 * merged into the target's query as well.
 */
export function withError(base: string, error: AuthError, pkce: boolean): string {
  const params: Record<string, string> = {};
  if (oauthErrors[error.status]) params.error = oauthErrors[error.status];
  params.error_code = error.code;
  params.error_description = error.message;
  return withFragment(pkce ? withQuery(base, params) : base, params);
}

/** The first of two email-change links (GoTrue's prepRedirectURL): a message, not a session. */
export function withMessage(base: string, message: string, pkce: boolean): string {
  const url = new URL(base);
  if (pkce) url.searchParams.set("message", message);
  url.searchParams.sort();
  return withFragment(url.href, { message });
}
