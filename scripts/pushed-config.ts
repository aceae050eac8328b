// What `supabase config push` would send, checked before it is sent: supabase/config.toml as the CLI
// reads it for a push (the file, the .env files it loads by itself, the shell's SUPABASE_* variables),
// against Supabase's own defaults for the limits that protect sign-in and email. Looser than those is
// a development value: it belongs in supabase/local-development.env, which a push never reads.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, parseDurationSeconds, parseEnvFile } from "@cuepoint/stack";
import { configTomlPath, repoRoot, supabaseDir } from "@cuepoint/stack/paths";

type Table = Record<string, unknown>;

/** At most this many (Supabase's defaults: its CLI's config template, as hosted projects start). */
const countLimits: Record<string, number> = {
  "auth.rate_limit.sms_sent": 30,
  "auth.rate_limit.anonymous_users": 30,
  "auth.rate_limit.token_refresh": 150,
  "auth.rate_limit.sign_in_sign_ups": 30,
  "auth.rate_limit.token_verifications": 30,
  "auth.rate_limit.web3": 30,
};
/** Supabase's own sender allows 2 emails an hour; with your SMTP server its default is 30. */
const emailsPerHour = { ownSender: 2, customSmtp: 30 };
/** At least this long between two emails (or codes) to one person: hosted Supabase's minute for email, the CLI's 5 s for SMS. */
const minimumGaps: Record<string, number> = {
  "auth.email.max_frequency": 60,
  "auth.sms.max_frequency": 5,
  "auth.mfa.phone.max_frequency": 5,
};

function at(raw: Table, key: string): unknown {
  return key.split(".").reduce<unknown>((value, part) => (value && typeof value === "object" ? (value as Table)[part] : undefined), raw);
}

/** Each setting a push would send looser than Supabase's defaults, in words; empty when it is safe to push. */
export function pushedConfigFindings(configText: string, env: Record<string, string | undefined>): string[] {
  const raw = parseConfig(configText, env).raw;
  const findings: string[] = [];
  const smtp = at(raw, "auth.email.smtp") as Table | undefined;
  const emailCap = smtp && smtp.enabled !== false ? emailsPerHour.customSmtp : emailsPerHour.ownSender;
  for (const [key, limit] of Object.entries({ ...countLimits, "auth.rate_limit.email_sent": emailCap })) {
    const value = at(raw, key);
    if (typeof value === "number" && value > limit) findings.push(`${key} = ${value}: at most ${limit}`);
  }
  for (const [key, minimum] of Object.entries(minimumGaps)) {
    const value = at(raw, key);
    if (value === undefined) continue;
    const gap = parseDurationSeconds(value, Number.NaN);
    if (!(gap >= minimum)) findings.push(`${key} = ${JSON.stringify(value)}: at least ${minimum}s`);
  }
  return findings;
}

/** The .env files the CLI loads by itself before reading config.toml (SUPABASE_ENV unset: development), from supabase/ up to the project. */
const cliEnvFiles = [supabaseDir, repoRoot].flatMap((dir) =>
  [".env.development.local", ".env.local", ".env.development", ".env"].map((name) => path.join(dir, name)),
);

/** The environment a push from this shell would read the config with: the shell's variables over the CLI's .env files. */
export function pushEnvironment(shell: Record<string, string | undefined>): Record<string, string | undefined> {
  const files = cliEnvFiles.filter((file) => existsSync(file)).reverse();
  return Object.assign({}, ...files.map((file) => parseEnvFile(readFileSync(file, "utf8"))), shell);
}

/** `npm run config:check`: run it in the shell you push from. */
export function checkPushedConfig(): number {
  const findings = pushedConfigFindings(readFileSync(configTomlPath, "utf8"), pushEnvironment(process.env));
  if (!findings.length) {
    console.log("supabase/config.toml is safe to push from this shell: its auth limits are Supabase's defaults or stricter.");
    return 0;
  }
  console.error(`A push from this shell would send development values:\n${findings.map((line) => `  ${line}`).join("\n")}`);
  console.error("Set them in supabase/local-development.env instead, or unset the SUPABASE_* variables that carry them.");
  return 1;
}
