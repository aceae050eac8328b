import { readFileSync } from "node:fs";
import path from "node:path";
import type { StackConfig } from "../../lib/config.ts";
import { workDir } from "../../lib/paths.ts";

/** The email kinds GoTrue sends, by their config.toml template names. */
export type EmailKind = "confirmation" | "magic_link" | "recovery" | "email_change" | "invite" | "reauthentication";

export interface EmailTemplate {
  subject: string;
  /** Go-template HTML, rendered by mail.ts. */
  content: string;
}

/** What the Auth service honours from config.toml's [auth], [auth.email], [auth.rate_limit] and [auth.web3]. */
export interface AuthSettings {
  siteUrl: string;
  /** The URL this service is reached at (GoTrue's API_EXTERNAL_URL); also the JWT issuer. */
  externalUrl: string;
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  enableSignup: boolean;
  enableAnonymousSignIns: boolean;
  /** [auth] enable_manual_linking: GoTrue's /user/identities routes. */
  enableManualLinking: boolean;
  minimumPasswordLength: number;
  passwordRequirements: string;
  email: {
    enabled: boolean;
    doubleConfirmChanges: boolean;
    enableConfirmations: boolean;
    securePasswordChange: boolean;
    maxFrequencySeconds: number;
    otpLength: number;
    otpExpiry: number;
  };
  templates: Record<EmailKind, EmailTemplate>;
  sms: {
    /** [auth.sms] enable_signup: GoTrue's phone provider (sign-up and sign-in by phone). */
    enabled: boolean;
    enableConfirmations: boolean;
    maxFrequencySeconds: number;
    /** The CLI runs GoTrue with GOTRUE_SMS_OTP_EXP=6000 (seconds). */
    otpExpiry: number;
    /** [auth.sms.test_otp]: phone number (digits only, as GoTrue stores it) → fixed OTP; nothing is sent. */
    testOtp: Map<string, string>;
  };
  /**
   * GoTrue applies its per-IP request limits only by a configured rate-limit header (or
   * Sb-Forwarded-For); `supabase start` configures neither, so locally they never apply.
   * STACK_AUTH_RATE_LIMIT_HEADER names such a header to turn them on.
   */
  rateLimitHeader: string;
  rateLimit: {
    emailSent: number;
    tokenRefresh: number;
    signInSignUps: number;
    tokenVerifications: number;
    web3: number;
    anonymousUsers: number;
  };
  web3Ethereum: boolean;
  mfa: MfaSettings;
  /** [auth.passkey] enabled: passkey sign-in and management (GoTrue's /passkeys routes). */
  passkeyEnabled: boolean;
  /** GoTrue's GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER (the CLI does not set it). */
  maxPasskeysPerUser: number;
  /** [auth.webauthn]: the relying party passkeys and WebAuthn factors are bound to. */
  webauthn: WebAuthnSettings;
  sender: { name: string; address: string };
}

/** [auth.webauthn]: rp_id, rp_display_name, rp_origins (GoTrue's GOTRUE_WEBAUTHN_*). */
export interface WebAuthnSettings {
  rpId: string;
  rpDisplayName: string;
  rpOrigins: string[];
  /** GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION: 5 minutes (the CLI does not set it). */
  challengeExpirySeconds: number;
}

/** [auth.mfa]: which factor kinds may be enrolled and verified, and how many a user may have. */
export interface MfaSettings {
  maxEnrolledFactors: number;
  /** GoTrue's MaxVerifiedFactors (10; not in config.toml). */
  maxVerifiedFactors: number;
  totp: { enroll: boolean; verify: boolean };
  phone: { enroll: boolean; verify: boolean; otpLength: number; template: string; maxFrequencySeconds: number };
  /** [auth.mfa.web_authn]: on when the section is absent (the stack serves WebAuthn factors locally). */
  webauthn: { enroll: boolean; verify: boolean };
  /** [auth.sms.test_otp]: phone numbers (digits, no "+") whose code is fixed and never sent. */
  testOtp: Record<string, string>;
}

type Table = Record<string, unknown>;

function table(parent: Table, key: string): Table {
  const value = parent[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Table) : {};
}
const str = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
const num = (value: unknown, fallback: number) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);
const bool = (value: unknown, fallback: boolean) => (typeof value === "boolean" ? value : fallback);

/** Go durations as config.toml writes them ("0s", "60s", "1m30s", "1h"), in seconds. */
export function parseDurationSeconds(value: unknown, fallback: number): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return fallback;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== value.trim()) return fallback;
  const unit: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  return parts.reduce((sum, [, amount, u]) => sum + Number(amount) * unit[u], 0);
}

// GoTrue's built-in templates, used when config.toml names no content_path.
const defaultTemplates: Record<EmailKind, EmailTemplate> = {
  confirmation: {
    subject: "Confirm Your Signup",
    content:
      '<h2>Confirm your signup</h2>\n\n<p>Follow this link to confirm your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your mail</a></p>',
  },
  magic_link: {
    subject: "Your Magic Link",
    content: '<h2>Magic Link</h2>\n\n<p>Follow this link to login:</p>\n<p><a href="{{ .ConfirmationURL }}">Log In</a></p>',
  },
  recovery: {
    subject: "Reset Your Password",
    content:
      '<h2>Reset Password</h2>\n\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset Password</a></p>',
  },
  email_change: {
    subject: "Confirm Email Change",
    content:
      '<h2>Confirm Change of Email</h2>\n\n<p>Follow this link to confirm the update of your email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change Email</a></p>',
  },
  reauthentication: {
    subject: "Confirm reauthentication",
    content: "<h2>Confirm reauthentication</h2>\n\n<p>Enter the code: {{ .Token }}</p>",
  },
  invite: {
    subject: "You have been invited",
    content:
      '<h2>You have been invited</h2>\n\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>',
  },
};

function template(emailTable: Table, kind: EmailKind): EmailTemplate {
  const configured = table(table(emailTable, "template"), kind);
  const fallback = defaultTemplates[kind];
  const contentPath = configured.content_path;
  let content = fallback.content;
  if (typeof contentPath === "string" && contentPath) {
    // The CLI resolves content_path against the project directory (the one holding supabase/).
    content = readFileSync(path.resolve(workDir, contentPath), "utf8");
  }
  return { subject: str(configured.subject, fallback.subject), content };
}

/** STACK_AUTH_JWT_EXPIRY (seconds) overrides jwt_expiry, so end-to-end tests can use short-lived tokens. */
function jwtExpiryOverride(): number | undefined {
  const value = process.env.STACK_AUTH_JWT_EXPIRY;
  return value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/** [auth.sms.test_otp] as GoTrue reads GOTRUE_SMS_TEST_OTP: keys are phone numbers, compared without `+`. */
function testOtps(entries: Table): Map<string, string> {
  const otps = new Map<string, string>();
  for (const [phone, otp] of Object.entries(entries)) {
    if (typeof otp === "string" || typeof otp === "number") otps.set(phone.replace(/\D/g, ""), String(otp));
  }
  return otps;
}

function mfaSettings(auth: Table): MfaSettings {
  const mfa = table(auth, "mfa");
  const totp = table(mfa, "totp");
  const phone = table(mfa, "phone");
  const webauthn = table(mfa, "web_authn");
  const testOtp = Object.entries(table(table(auth, "sms"), "test_otp")).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return {
    maxEnrolledFactors: num(mfa.max_enrolled_factors, 10),
    maxVerifiedFactors: 10,
    totp: { enroll: bool(totp.enroll_enabled, true), verify: bool(totp.verify_enabled, true) },
    phone: {
      enroll: bool(phone.enroll_enabled, false),
      verify: bool(phone.verify_enabled, false),
      otpLength: num(phone.otp_length, 6),
      template: str(phone.template, "Your code is {{ .Code }}"),
      maxFrequencySeconds: parseDurationSeconds(phone.max_frequency, 5),
    },
    webauthn: { enroll: bool(webauthn.enroll_enabled, true), verify: bool(webauthn.verify_enabled, true) },
    testOtp: Object.fromEntries(testOtp),
  };
}

/** The origin of a URL (globs such as `/**` in additional_redirect_urls are only in the path), or undefined. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * [auth.webauthn] as the CLI passes it to GoTrue. Without the section, local defaults: the RP id
 * is site_url's host name, the origins are site_url's and those of additional_redirect_urls.
 */
function webauthnSettings(auth: Table, siteUrl: string, redirectUrls: string[]): WebAuthnSettings {
  const webauthn = table(auth, "webauthn");
  const configuredOrigins = Array.isArray(webauthn.rp_origins) ? webauthn.rp_origins.filter((o): o is string => typeof o === "string") : [];
  const defaults = [siteUrl, ...redirectUrls].map(originOf).filter((o): o is string => Boolean(o));
  let siteHost = "localhost";
  try {
    siteHost = new URL(siteUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    // site_url is checked where it is used
  }
  return {
    rpId: str(webauthn.rp_id, "") || siteHost,
    rpDisplayName: str(webauthn.rp_display_name, "") || "Supabase",
    rpOrigins: [...new Set(configuredOrigins.length ? configuredOrigins : defaults)],
    challengeExpirySeconds: 300,
  };
}

export function authSettings(config: StackConfig): AuthSettings {
  const auth = table(config.raw, "auth");
  const email = table(auth, "email");
  const rate = table(auth, "rate_limit");
  const smtp = table(config.raw, "local_smtp");
  const sms = table(auth, "sms");
  // The CLI passes [auth.rate_limit].email_sent to GoTrue only with a custom SMTP server; with the
  // local inbox it sets 360000 an hour.
  const customSmtp = bool(table(email, "smtp").enabled, false);
  const apiUrl = `http://127.0.0.1:${config.apiPort}`;
  // STACK_AUTH_SITE_URL stands in for site_url, so end-to-end tests' email links reach the app on its test port.
  const siteUrl = process.env.STACK_AUTH_SITE_URL || str(auth.site_url, "http://127.0.0.1:3000");
  const additionalRedirectUrls = Array.isArray(auth.additional_redirect_urls)
    ? auth.additional_redirect_urls.filter((u): u is string => typeof u === "string")
    : [];
  return {
    siteUrl,
    externalUrl: str(auth.external_url, "") || `${apiUrl}/auth/v1`,
    additionalRedirectUrls,
    jwtExpiry: jwtExpiryOverride() ?? num(auth.jwt_expiry, 3600),
    refreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
    refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
    enableSignup: bool(auth.enable_signup, true),
    enableAnonymousSignIns: bool(auth.enable_anonymous_sign_ins, false),
    enableManualLinking: bool(auth.enable_manual_linking, false),
    minimumPasswordLength: Math.max(6, num(auth.minimum_password_length, 6)),
    passwordRequirements: str(auth.password_requirements, ""),
    email: {
      enabled: bool(email.enabled, true),
      doubleConfirmChanges: bool(email.double_confirm_changes, true),
      enableConfirmations: bool(email.enable_confirmations, false),
      securePasswordChange: bool(email.secure_password_change, false),
      maxFrequencySeconds: parseDurationSeconds(email.max_frequency, 1),
      otpLength: num(email.otp_length, 6),
      otpExpiry: num(email.otp_expiry, 3600),
    },
    templates: {
      confirmation: template(email, "confirmation"),
      magic_link: template(email, "magic_link"),
      recovery: template(email, "recovery"),
      email_change: template(email, "email_change"),
      invite: template(email, "invite"),
      reauthentication: template(email, "reauthentication"),
    },
    sms: {
      enabled: bool(sms.enable_signup, bool(sms.enabled, false)),
      enableConfirmations: bool(sms.enable_confirmations, false),
      maxFrequencySeconds: parseDurationSeconds(sms.max_frequency, 5),
      otpExpiry: 6000,
      testOtp: testOtps(table(sms, "test_otp")),
    },
    rateLimitHeader: process.env.STACK_AUTH_RATE_LIMIT_HEADER ?? "",
    rateLimit: {
      emailSent: customSmtp ? num(rate.email_sent, 2) : 360_000,
      tokenRefresh: num(rate.token_refresh, 150),
      signInSignUps: num(rate.sign_in_sign_ups, 30),
      tokenVerifications: num(rate.token_verifications, 30),
      web3: num(rate.web3, 30),
      anonymousUsers: num(rate.anonymous_users, 30),
    },
    web3Ethereum: bool(table(table(auth, "web3"), "ethereum").enabled, false),
    mfa: mfaSettings(auth),
    // Off in `supabase start` unless [auth.passkey] enables it; the stack serves passkeys unless the
    // section turns them off.
    passkeyEnabled: bool(table(auth, "passkey").enabled, true),
    maxPasskeysPerUser: 10,
    webauthn: webauthnSettings(auth, siteUrl, additionalRedirectUrls),
    sender: { name: str(smtp.sender_name, "Admin"), address: str(smtp.admin_email, "admin@email.com") },
  };
}

/** OAuth providers GoTrue knows; the stack serves none of them (as config.toml enables none). */
export const oauthProviders = [
  "apple",
  "azure",
  "bitbucket",
  "discord",
  "facebook",
  "figma",
  "fly",
  "github",
  "gitlab",
  "google",
  "kakao",
  "keycloak",
  "linkedin",
  "linkedin_oidc",
  "notion",
  "slack",
  "slack_oidc",
  "spotify",
  "twitch",
  "twitter",
  "x",
  "workos",
  "zoom",
];

/** What GET /settings shows: which providers are on, as supabase-js and dashboards read them. */
export function publicSettings(settings: AuthSettings): Record<string, unknown> {
  const off = ["anonymous_users", ...oauthProviders, "web3_solana"];
  return {
    external: {
      ...Object.fromEntries(off.map((name) => [name, false])),
      email: settings.email.enabled,
      phone: settings.sms.enabled,
      web3_ethereum: settings.web3Ethereum,
    },
    disable_signup: !settings.enableSignup,
    mailer_autoconfirm: !settings.email.enableConfirmations,
    phone_autoconfirm: !settings.sms.enableConfirmations,
    sms_provider: "twilio",
    saml_enabled: false,
    passkeys_enabled: settings.passkeyEnabled,
  };
}
