import { describe, expect, test } from "vitest";
import { loadConfig, parseConfig, parseEnvFile } from "../../lib/config.ts";

const portOverrides = ["STACK_API_PORT", "STACK_DB_PORT", "STACK_INBOX_PORT", "STACK_SMTP_PORT", "STACK_CHAIN_PORT"];

/** Runs `read` as if no STACK_*_PORT override were set (a private stack's shell may have them). */
function withoutPortOverrides<T>(read: () => T): T {
  const saved = portOverrides.map((name) => [name, process.env[name]] as const);
  for (const name of portOverrides) delete process.env[name];
  try {
    return read();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

/** The parts of config.toml these tests read. */
interface ProductConfig {
  auth: {
    site_url: string;
    additional_redirect_urls: string[];
    email: { enable_confirmations: boolean };
    web3: { ethereum: { enabled: boolean } };
  };
  storage: { buckets: Record<string, unknown> };
}

describe("supabase/config.toml, as the product needs it", () => {
  const config = withoutPortOverrides(loadConfig);
  const raw = config.raw as unknown as ProductConfig;

  test("uses Supabase's local ports and PostgreSQL 15", () => {
    expect(config).toMatchObject({ apiPort: 54321, dbPort: 54322, inboxPort: 54324, smtpPort: 54325, dbMajorVersion: 15 });
  });

  test("sends users back to the app's auth route handlers, with email confirmation and Ethereum sign-in on", () => {
    expect(raw.auth.site_url).toBe("http://localhost:3000");
    expect(raw.auth.additional_redirect_urls).toEqual(
      expect.arrayContaining(["http://localhost:3000/auth/confirm**", "http://localhost:3000/auth/callback**"]),
    );
    expect(raw.auth.email.enable_confirmations).toBe(true);
    expect(raw.auth.web3.ethereum.enabled).toBe(true);
  });

  test("declares the product's three buckets (docs/product.md) with their visibility, size limit and types", () => {
    expect(raw.storage.buckets).toEqual({
      avatars: { public: true, file_size_limit: "2MiB", allowed_mime_types: ["image/png", "image/jpeg", "image/webp", "image/gif"] },
      "room-covers": { public: true, file_size_limit: "5MiB", allowed_mime_types: ["image/png", "image/jpeg", "image/webp"] },
      media: { public: false, file_size_limit: "50MiB", allowed_mime_types: ["audio/*", "video/*"] },
    });
  });
});

describe("parseConfig", () => {
  test("falls back to Supabase's default ports", () => {
    expect(withoutPortOverrides(() => parseConfig('project_id = "x"'))).toMatchObject({
      projectId: "x",
      apiPort: 54321,
      dbPort: 54322,
      inboxPort: 54324,
      chainPort: 8545,
    });
  });

  test("lets STACK_*_PORT run a second stack beside the first", () => {
    process.env.STACK_DB_PORT = "60022";
    try {
      expect(parseConfig("[db]\nport = 54322").dbPort).toBe(60022);
    } finally {
      delete process.env.STACK_DB_PORT;
    }
  });

  test("puts the local chain on 8545 unless STACK_CHAIN_PORT says otherwise", () => {
    expect(withoutPortOverrides(() => parseConfig("[api]\nport = 54321").chainPort)).toBe(8545);
    withoutPortOverrides(() => {
      process.env.STACK_CHAIN_PORT = "60545";
      try {
        expect(parseConfig("").chainPort).toBe(60545);
      } finally {
        delete process.env.STACK_CHAIN_PORT;
      }
    });
  });

  test("takes SMTP on [local_smtp] smtp_port ([inbucket] in older configs), 54325 by default, or STACK_SMTP_PORT", () => {
    withoutPortOverrides(() => {
      expect(parseConfig("").smtpPort).toBe(54325);
      expect(parseConfig("[local_smtp]\nsmtp_port = 2525").smtpPort).toBe(2525);
      expect(parseConfig("[inbucket]\nsmtp_port = 2526").smtpPort).toBe(2526);
      process.env.STACK_SMTP_PORT = "60025";
      try {
        expect(parseConfig("[local_smtp]\nsmtp_port = 2525").smtpPort).toBe(60025);
      } finally {
        delete process.env.STACK_SMTP_PORT;
      }
      // a private stack that moves only its inbox takes SMTP beside it, never the project's port
      process.env.STACK_INBOX_PORT = "61324";
      try {
        expect(parseConfig("[local_smtp]\nsmtp_port = 54325")).toMatchObject({ inboxPort: 61324, smtpPort: 61325 });
      } finally {
        delete process.env.STACK_INBOX_PORT;
      }
    });
  });

  test("rejects a config that is not TOML", () => {
    expect(() => parseConfig("[db\nport = ")).toThrow();
  });
});

describe("settings from the environment, as the Supabase CLI reads them", () => {
  const text = '[auth]\njwt_expiry = 3600\nenable_signup = true\n[auth.email]\nmax_frequency = "60s"\n[auth.rate_limit]\nemail_sent = 2\n';
  const auth = (env: Record<string, string>) =>
    (
      parseConfig(text, env).raw as {
        auth: Record<string, unknown> & { email: Record<string, unknown>; rate_limit: Record<string, unknown> };
      }
    ).auth;

  test("SUPABASE_ and the key path in capitals: strings, numbers and booleans keep their type", () => {
    const read = auth({
      SUPABASE_AUTH_EMAIL_MAX_FREQUENCY: "0s",
      SUPABASE_AUTH_RATE_LIMIT_EMAIL_SENT: "1000",
      SUPABASE_AUTH_ENABLE_SIGNUP: "false",
      SUPABASE_AUTH_JWT_EXPIRY: "60",
    });
    expect(read).toMatchObject({ jwt_expiry: 60, enable_signup: false, email: { max_frequency: "0s" }, rate_limit: { email_sent: 1000 } });
  });

  test("an empty or unrelated variable changes nothing", () => {
    expect(auth({ SUPABASE_AUTH_EMAIL_MAX_FREQUENCY: "", SUPABASE_URL: "http://elsewhere" })).toMatchObject({
      jwt_expiry: 3600,
      enable_signup: true,
      email: { max_frequency: "60s" },
    });
  });

  test("a value that is not of the setting's type is refused, naming the variable and the key", () => {
    expect(() => auth({ SUPABASE_AUTH_RATE_LIMIT_EMAIL_SENT: "lots" })).toThrow(
      "SUPABASE_AUTH_RATE_LIMIT_EMAIL_SENT=lots is not a number (auth.rate_limit.email_sent in config.toml)",
    );
    expect(() => auth({ SUPABASE_AUTH_ENABLE_SIGNUP: "yes" })).toThrow(
      "SUPABASE_AUTH_ENABLE_SIGNUP=yes is not true or false (auth.enable_signup in config.toml)",
    );
  });
});

describe("parseEnvFile", () => {
  test("reads KEY=VALUE lines, quoted or not, and skips comments and blank lines", () => {
    expect(parseEnvFile("# a comment\n\nA=1\nexport B=\"two words\"\nC=three # trailing\n  D = 'x#y'\nnot a line\n")).toEqual({
      A: "1",
      B: "two words",
      C: "three",
      D: "x#y",
    });
  });
});
