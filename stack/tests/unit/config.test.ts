import { describe, expect, test } from "vitest";
import { loadConfig, parseConfig } from "../../lib/config.ts";

const portOverrides = ["STACK_API_PORT", "STACK_DB_PORT", "STACK_INBOX_PORT", "STACK_CHAIN_PORT"];

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
  auth: { site_url: string; additional_redirect_urls: string[]; email: { enable_confirmations: boolean }; web3: { ethereum: { enabled: boolean } } };
  storage: { buckets: Record<string, unknown> };
}

describe("supabase/config.toml, as the product needs it", () => {
  const config = withoutPortOverrides(loadConfig);
  const raw = config.raw as unknown as ProductConfig;

  test("uses Supabase's local ports and PostgreSQL 15", () => {
    expect(config).toMatchObject({ apiPort: 54321, dbPort: 54322, inboxPort: 54324, dbMajorVersion: 15 });
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
    expect(withoutPortOverrides(() => parseConfig('project_id = "x"'))).toMatchObject({ projectId: "x", apiPort: 54321, dbPort: 54322, inboxPort: 54324, chainPort: 8545 });
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

  test("rejects a config that is not TOML", () => {
    expect(() => parseConfig("[db\nport = ")).toThrow();
  });
});
