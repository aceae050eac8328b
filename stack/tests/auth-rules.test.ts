// The Auth service's pure rules, checked without a server: redirect allow-list globs, email
// template rendering (Go html/template escaping), EIP-4361 parsing, config durations.
import { describe, expect, test } from "vitest";
import { renderTemplate } from "../server/auth/mail.ts";
import { globToRegExp, isRedirectAllowed } from "../server/auth/redirect.ts";
import { type AuthSettings, authSettings, parseDurationSeconds } from "../server/auth/settings.ts";
import { parseSiweMessage } from "../server/auth/siwe.ts";
import { config } from "./helpers/stack.ts";

const settings: AuthSettings = {
  ...authSettings(config),
  siteUrl: "http://localhost:3000",
  additionalRedirectUrls: ["http://localhost:3000/auth/confirm**", "https://*.cuepoint.example/callback", "myapp://auth/*"],
};

describe("redirect allow-list (GoTrue's IsRedirectURLValid)", () => {
  test.each([
    ["http://localhost:3000/anything?x=1", true],
    ["http://localhost:3100/auth/confirm?next=%2F", true], // same host, loopback: any port
    ["http://127.0.0.1:4000/x", true], // loopback IP
    ["https://localhost:3000/", false], // scheme must match site_url
    ["https://app.cuepoint.example/callback", true],
    ["https://evil.example/callback", false],
    ["https://a.b.cuepoint.example/callback", false], // * stops at a dot
    ["myapp://auth/done", true],
    ["myapp://auth/done/more", false], // * stops at a slash
    ["https://2130706433/", false], // decimal IP (WHATWG URL would read it as 127.0.0.1)
    ["http://0x7f.1/", false],
    ["http://127.1.2.3:9/", true],
    ["http://[::1]:8080/", true],
    ["http://10.0.0.1/", false],
    ["http://user@localhost:3000/x", true],
    ["http://evil_host.example/", false], // unusual hostname characters
    ["\thttps://evil.example", false], // control characters
    ["https://evil.example#http://localhost:3000/auth/confirm", false],
    ["", false],
  ])("%s → %s", (url, allowed) => {
    expect(isRedirectAllowed(settings, url)).toBe(allowed);
  });

  test("`**` crosses separators, `*` and `?` do not", () => {
    expect(globToRegExp("http://a.test/**").test("http://a.test/x/y.z")).toBe(true);
    expect(globToRegExp("http://a.test/*").test("http://a.test/x/y")).toBe(false);
    expect(globToRegExp("http://a.test/?").test("http://a.test/x")).toBe(true);
    expect(globToRegExp("http://a.test/(x)+").test("http://a.test/(x)+")).toBe(true);
  });
});

describe("email templates (Go html/template escaping)", () => {
  const data = {
    ConfirmationURL: "http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http%3A%2F%2Flocalhost%3A3000",
    Token: "123456",
    TokenHash: "abc",
    SiteURL: "http://localhost:3000",
    RedirectTo: "http://localhost:3000/rooms?tab=live&q=a b",
    Email: "o'neil+tag@example.test",
    NewEmail: "<new>@example.test",
    Data: { name: "Ada & Grace" },
  };

  test("URLs in attributes are normalised and attribute-escaped; text is HTML-escaped", () => {
    expect(renderTemplate('<a href="{{ .ConfirmationURL }}">go</a>', data)).toBe(
      '<a href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=signup&amp;redirect_to=http%3A%2F%2Flocalhost%3A3000">go</a>',
    );
    // Before `?` a value is normalised (reserved characters kept); after it, query-escaped whole, in lower-case hex as Go writes it.
    expect(renderTemplate('<a href="{{ .SiteURL }}/auth/confirm?token_hash={{ .TokenHash }}&next={{ .RedirectTo }}">x</a>', data)).toBe(
      '<a href="http://localhost:3000/auth/confirm?token_hash=abc&next=http%3a%2f%2flocalhost%3a3000%2frooms%3ftab%3dlive%26q%3da%20b">x</a>',
    );
    expect(renderTemplate('<a href="{{ .RedirectTo }}&token_hash={{ .TokenHash }}">x</a>', data)).toBe(
      '<a href="http://localhost:3000/rooms?tab=live&amp;q=a%20b&token_hash=abc">x</a>',
    );
    // A URL at an attribute's start must be http(s), mailto or relative; a non-URL attribute is only HTML-escaped.
    expect(renderTemplate('<a href="{{ .Data.page }}" title="{{ .Data.page }}">', { ...data, Data: { page: "javascript:alert(1)" } })).toBe(
      '<a href="#ZgotmplZ" title="javascript:alert(1)">',
    );
    expect(renderTemplate("<p>{{ .Email }} → {{ .NewEmail }}, code {{.Token}}, {{ .Data.name }}</p>", data)).toBe(
      "<p>o&#39;neil&#43;tag@example.test → &lt;new&gt;@example.test, code 123456, Ada &amp; Grace</p>",
    );
    expect(renderTemplate('<a href="{{ .Data.page }}">', { ...data, Data: { page: 'http://x.test/a b"c' } })).toBe(
      '<a href="http://x.test/a%20b%22c">',
    );
  });

  test("subjects are plain text; unknown fields render empty", () => {
    expect(renderTemplate("Hi {{ .Email }} {{ .Nope }}", data, false)).toBe("Hi o'neil+tag@example.test ");
  });

  test("the project's templates render the links the app's /auth/confirm expects", () => {
    const html = renderTemplate(authSettings(config).templates.confirmation.content, data);
    expect(html).toContain(
      '<a href="http://localhost:3000/auth/confirm?token_hash=abc&type=signup&next=http%3a%2f%2flocalhost%3a3000%2frooms%3ftab%3dlive%26q%3da%20b">Confirm my email</a>',
    );
  });
});

describe("EIP-4361 messages", () => {
  const address = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
  const message = (suffix = "", statement = "Sign in.\n\n") =>
    `localhost:3000 wants you to sign in with your Ethereum account:\n${address}\n\n${statement}URI: http://localhost:3000/login\nVersion: 1\nChain ID: 1\nIssued At: 2026-01-01T00:00:00.000Z${suffix}`;

  test("auth-js's layout, with and without a statement, nonce optional", () => {
    expect(parseSiweMessage(message())).toMatchObject({
      domain: "localhost:3000",
      address,
      statement: "Sign in.",
      chainId: 1,
      version: "1",
      nonce: undefined,
    });
    expect(parseSiweMessage(message("", "\n")).statement).toBeUndefined();
    const full = parseSiweMessage(
      message(
        "\nExpiration Time: 2026-01-01T00:10:00Z\nNot Before: 2026-01-01T00:00:00Z\nRequest ID: r1\nResources:\n- https://a.test\n- ipfs://b",
      ),
    );
    expect(full).toMatchObject({ requestId: "r1", resources: ["https://a.test", "ipfs://b"] });
    expect(full.expirationTime?.toISOString()).toBe("2026-01-01T00:10:00.000Z");
  });

  test.each([
    ["a bad header", "evil wants you:\n"],
    ["a duplicated field", message("\nVersion: 1")],
    ["version 2", message().replace("Version: 1", "Version: 2")],
    ["a non-RFC-3339 time", message().replace("2026-01-01T00:00:00.000Z", "Jan 1 2026")],
    ["a missing URI", message().replace("URI: http://localhost:3000/login\n", "")],
    ["chain id 0", message().replace("Chain ID: 1", "Chain ID: 0")],
  ])("rejects %s", (_name, text) => {
    expect(() => parseSiweMessage(text)).toThrow(/^siwe: /);
  });
});

test("config.toml durations", () => {
  expect(parseDurationSeconds("0s", 1)).toBe(0);
  expect(parseDurationSeconds("1m30s", 1)).toBe(90);
  expect(parseDurationSeconds("2h", 1)).toBe(7200);
  expect(parseDurationSeconds("soon", 7)).toBe(7);
});

test("STACK_AUTH_JWT_EXPIRY overrides jwt_expiry (short-lived tokens for end-to-end tests)", () => {
  const before = process.env.STACK_AUTH_JWT_EXPIRY;
  try {
    process.env.STACK_AUTH_JWT_EXPIRY = "120";
    expect(authSettings(config).jwtExpiry).toBe(120);
    process.env.STACK_AUTH_JWT_EXPIRY = "soon";
    expect(authSettings(config).jwtExpiry).toBe(3600);
  } finally {
    if (before === undefined) delete process.env.STACK_AUTH_JWT_EXPIRY;
    else process.env.STACK_AUTH_JWT_EXPIRY = before;
  }
});
