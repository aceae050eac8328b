// Every auth email template × every kind of redirect: the link is a URL on the site's /auth/confirm,
// its token signs the person in, and it carries the redirect GoTrue chose as `next` (the allowed
// redirect, else the site URL). Where the app then sends the person is the app's own rule, tested
// with these same values in tests/unit/redirect.test.ts.
import { describe, expect, test } from "vitest";
import { admin, client, createConfirmedUser, firstLink, latestMail, mailsTo, uniqueEmail } from "./auth-helpers.ts";

const site = "http://localhost:3000";

/** The redirect a caller passes, and the `next` the link must carry. */
const redirects = [
  { kind: "none", redirectTo: undefined, next: site },
  { kind: "without a query", redirectTo: `${site}/welcome`, next: `${site}/welcome` },
  { kind: "with a query", redirectTo: `${site}/rooms?tab=live&q=a%20b#now`, next: `${site}/rooms?tab=live&q=a%20b#now` },
  {
    kind: "naming /auth/confirm (older clients)",
    redirectTo: `${site}/auth/confirm?next=${encodeURIComponent("/account?x=1&y=2")}`,
    next: `${site}/auth/confirm?next=${encodeURIComponent("/account?x=1&y=2")}`,
  },
  { kind: "off the allow-list (site_url instead)", redirectTo: "https://evil.example/steal?next=/x", next: site },
] as const;

type Redirect = (typeof redirects)[number];

/** The email's link checked as a browser would follow it: a URL to /auth/confirm on the site. */
function checkLink(href: URL, type: string, redirect: Redirect): string {
  expect(`${href.origin}${href.pathname}`).toBe(`${site}/auth/confirm`);
  expect(href.searchParams.get("type")).toBe(type);
  const tokenHash = href.searchParams.get("token_hash");
  expect(tokenHash).toMatch(/^(pkce_)?[0-9a-f]{56}$/);
  expect(href.searchParams.get("next")).toBe(redirect.next);
  return tokenHash!;
}

async function expectSignsIn(type: "signup" | "invite" | "magiclink" | "recovery" | "email_change", tokenHash: string, email: string) {
  const { data, error } = await client().auth.verifyOtp({ type, token_hash: tokenHash });
  expect(error).toBeNull();
  expect(data.session?.user.email).toBe(email);
}

describe.each(redirects)("a redirect $kind", (redirect) => {
  test("confirmation (sign-up): the link confirms and signs in", async () => {
    const email = uniqueEmail("tpl-signup");
    const { error } = await client().auth.signUp({
      email,
      password: "listening-club-42",
      options: { emailRedirectTo: redirect.redirectTo },
    });
    expect(error).toBeNull();
    const tokenHash = checkLink(firstLink(await latestMail(email, /Confirm your Cuepoint account/)), "signup", redirect);
    await expectSignsIn("signup", tokenHash, email);
  });

  test("magic link: the link signs in", async () => {
    const user = await createConfirmedUser("tpl-magic");
    expect(
      (await client().auth.signInWithOtp({ email: user.email, options: { emailRedirectTo: redirect.redirectTo, shouldCreateUser: false } }))
        .error,
    ).toBeNull();
    const tokenHash = checkLink(firstLink(await latestMail(user.email, /Your Cuepoint sign-in link/)), "magiclink", redirect);
    await expectSignsIn("magiclink", tokenHash, user.email);
  });

  test("recovery: the link signs in (to set a new password)", async () => {
    const user = await createConfirmedUser("tpl-recovery");
    expect((await client().auth.resetPasswordForEmail(user.email, { redirectTo: redirect.redirectTo })).error).toBeNull();
    const tokenHash = checkLink(firstLink(await latestMail(user.email, /Reset your Cuepoint password/)), "recovery", redirect);
    await expectSignsIn("recovery", tokenHash, user.email);
  });

  test("invite (admin API): the link signs the invited person in", async () => {
    const email = uniqueEmail("tpl-invite");
    const { error } = await admin().auth.admin.inviteUserByEmail(
      email,
      redirect.redirectTo ? { redirectTo: redirect.redirectTo } : undefined,
    );
    expect(error).toBeNull();
    const tokenHash = checkLink(firstLink(await latestMail(email, /You're invited to Cuepoint/)), "invite", redirect);
    await expectSignsIn("invite", tokenHash, email);
  });

  test("email change: both links (current and new address) confirm it, and the last signs in as the new address", async () => {
    const user = await createConfirmedUser("tpl-change");
    const signedIn = client();
    await signedIn.auth.signInWithPassword({ email: user.email, password: user.password });
    const newEmail = uniqueEmail("tpl-changed");
    expect((await signedIn.auth.updateUser({ email: newEmail }, { emailRedirectTo: redirect.redirectTo })).error).toBeNull();
    const toNew = checkLink(firstLink(await latestMail(newEmail, /Confirm your new Cuepoint email address/)), "email_change", redirect);
    const toCurrent = checkLink(
      firstLink(await latestMail(user.email, /Confirm your new Cuepoint email address/)),
      "email_change",
      redirect,
    );
    expect((await client().auth.verifyOtp({ type: "email_change", token_hash: toCurrent })).error).toBeNull();
    await expectSignsIn("email_change", toNew, newEmail);
    expect(await mailsTo(newEmail)).toHaveLength(1);
  });
});
