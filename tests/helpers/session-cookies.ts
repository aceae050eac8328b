// Session cookies as the app's server client stores them (@supabase/ssr: name, base64 value,
// chunks), for a real sign-in whose access token is re-signed to live an hour: `npm test` runs Auth
// with 120-second tokens, which supabase-js renews as soon as a page loads. The session and
// refresh token stay the real ones; `sign` decides how the token is signed.
import { createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import { loadConfig } from "@cuepoint/stack";
import { publishableKey } from "@cuepoint/stack/keys";
import { loadSigningKeys, signWithKey } from "@cuepoint/stack/signing-keys";

type Claims = Record<string, unknown>;

/** Signed as Auth signs: the project's first signing key. */
const projectSigned = (claims: Claims) => signWithKey(loadSigningKeys(loadConfig())[0], claims);

export async function freshSessionCookies(
  apiUrl: string,
  user: { email: string; password: string },
  sign: (claims: Claims) => string = projectSigned,
) {
  const signedIn = await createClient(apiUrl, publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  }).auth.signInWithPassword(user);
  if (signedIn.error) throw signedIn.error;
  const claims = JSON.parse(Buffer.from(signedIn.data.session.access_token.split(".")[1], "base64url").toString("utf8")) as Claims;
  const now = Math.floor(Date.now() / 1000);
  const jar = new Map<string, string>();
  const server = createServerClient(apiUrl, publishableKey, {
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cookies) => cookies.forEach(({ name, value }) => jar.set(name, value)),
    },
  });
  const stored = await server.auth.setSession({
    access_token: sign({ ...claims, iat: now, exp: now + 3600 }),
    refresh_token: signedIn.data.session.refresh_token,
  });
  if (stored.error) throw stored.error;
  return [...jar].map(([name, value]) => ({ name, value }));
}
