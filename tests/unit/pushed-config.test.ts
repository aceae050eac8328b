// supabase/config.toml is what `supabase config push` sends to production: its auth limits must be
// Supabase's defaults or stricter, and what local development relaxes must come from elsewhere.
import { readFileSync } from "node:fs";
import { loadConfig, parseConfig, parseEnvFile } from "@cuepoint/stack";
import { configTomlPath, localDevelopmentEnvPath } from "@cuepoint/stack/paths";
import { describe, expect, test } from "vitest";
import { pushEnvironment, pushedConfigFindings } from "../../scripts/pushed-config";

const configText = readFileSync(configTomlPath, "utf8");

describe("supabase/config.toml as it would be pushed", () => {
  test("sends no development value: rate limits and email frequency are Supabase's defaults or stricter", () => {
    // The project's files only: the CLI's own .env files, without this test runner's shell.
    expect(pushedConfigFindings(configText, pushEnvironment({}))).toEqual([]);
  });

  test("names each development value, in the file or in the pushing shell", () => {
    const loose = configText
      .replace("token_refresh = 150", "token_refresh = 10000")
      .replace("sign_in_sign_ups = 30", "sign_in_sign_ups = 10000")
      .replace('max_frequency = "60s"', 'max_frequency = "0s"');
    expect(pushedConfigFindings(loose, {})).toEqual([
      "auth.rate_limit.token_refresh = 10000: at most 150",
      "auth.rate_limit.sign_in_sign_ups = 10000: at most 30",
      'auth.email.max_frequency = "0s": at least 60s',
    ]);
    expect(
      pushedConfigFindings(configText, { SUPABASE_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: "10000", SUPABASE_AUTH_EMAIL_MAX_FREQUENCY: "1s" }),
    ).toEqual(["auth.rate_limit.token_verifications = 10000: at most 30", 'auth.email.max_frequency = "1s": at least 60s']);
  });

  test("emails an hour: 2 with Supabase's own sender, up to 30 once the project's SMTP server is set", () => {
    const raised = configText.replace("email_sent = 2", "email_sent = 30");
    expect(pushedConfigFindings(raised, {})).toEqual(["auth.rate_limit.email_sent = 30: at most 2"]);
    expect(pushedConfigFindings(`${raised}\n[auth.email.smtp]\nenabled = true\nhost = "smtp.example.com"\n`, {})).toEqual([]);
    expect(
      pushedConfigFindings(`${configText.replace("email_sent = 2", "email_sent = 31")}\n[auth.email.smtp]\nenabled = true\n`, {}),
    ).toEqual(["auth.rate_limit.email_sent = 31: at most 30"]);
  });

  test("an unreadable duration is a finding, not a pass", () => {
    expect(pushedConfigFindings(configText, { SUPABASE_AUTH_EMAIL_MAX_FREQUENCY: "a minute" })).toEqual([
      'auth.email.max_frequency = "a minute": at least 60s',
    ]);
  });
});

describe("local development", () => {
  test("gets its generous values from supabase/local-development.env, which the stack applies and a push never reads", () => {
    const local = parseEnvFile(readFileSync(localDevelopmentEnvPath, "utf8"));
    expect(local).toEqual({ SUPABASE_AUTH_EMAIL_MAX_FREQUENCY: "0s", SUPABASE_STORAGE_IMAGE_TRANSFORMATION_ENABLED: "true" });
    expect(pushedConfigFindings(configText, local)).toEqual(['auth.email.max_frequency = "0s": at least 60s']);
    const running = loadConfig().raw as { auth: { email: { max_frequency: string } } };
    expect(running.auth.email.max_frequency).toBe(process.env.SUPABASE_AUTH_EMAIL_MAX_FREQUENCY || "0s");
    expect((parseConfig(configText).raw as typeof running).auth.email.max_frequency).toBe("60s");
    // Image transformations (a paid-plan feature hosted) are on locally only.
    expect(parseConfig(configText).raw).toMatchObject({ storage: { image_transformation: { enabled: false } } });
    expect(loadConfig().raw).toMatchObject({ storage: { image_transformation: { enabled: true } } });
  });
});
