import { describe, expect, test } from "vitest";
import { ConfigError, parsePublicEnv } from "../../lib/env";

const good = { NEXT_PUBLIC_SUPABASE_URL: "http://127.0.0.1:54321", NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_x" };

describe("parsePublicEnv", () => {
  test("reads the public settings, with the site URL's default and the anon key as fallback", () => {
    expect(parsePublicEnv(good)).toEqual({
      supabaseUrl: good.NEXT_PUBLIC_SUPABASE_URL,
      supabaseKey: "sb_publishable_x",
      siteUrl: "http://localhost:3000",
      thirdwebClientId: undefined,
    });
    const anon = parsePublicEnv({
      NEXT_PUBLIC_SUPABASE_URL: "https://abc.supabase.co",
      NEXT_PUBLIC_SUPABASE_ANON_KEY: "anon",
      NEXT_PUBLIC_SITE_URL: "https://cuepoint.example",
      NEXT_PUBLIC_THIRDWEB_CLIENT_ID: "id",
    });
    expect(anon).toEqual({
      supabaseUrl: "https://abc.supabase.co",
      supabaseKey: "anon",
      siteUrl: "https://cuepoint.example",
      thirdwebClientId: "id",
    });
  });

  test.each([
    [{ ...good, NEXT_PUBLIC_SUPABASE_URL: undefined }, /NEXT_PUBLIC_SUPABASE_URL must be a URL: run `npm run stack -- start`/],
    [{ ...good, NEXT_PUBLIC_SUPABASE_URL: "127.0.0.1:54321" }, /NEXT_PUBLIC_SUPABASE_URL must be a URL/],
    [{ ...good, NEXT_PUBLIC_SUPABASE_URL: "ftp://example.com" }, /NEXT_PUBLIC_SUPABASE_URL must be a URL/],
    [{ NEXT_PUBLIC_SUPABASE_URL: good.NEXT_PUBLIC_SUPABASE_URL }, /NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is missing/],
    [
      { ...good, NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "", NEXT_PUBLIC_SUPABASE_ANON_KEY: "" },
      /NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is empty/,
    ],
    [{ ...good, NEXT_PUBLIC_SITE_URL: "localhost:3000" }, /NEXT_PUBLIC_SITE_URL must be a URL such as http:\/\/localhost:3000/],
  ])("refuses a bad setting with what to do (%#)", (values, message) => {
    expect(() => parsePublicEnv(values)).toThrow(ConfigError);
    expect(() => parsePublicEnv(values)).toThrow(message);
  });

  test("names every problem at once", () => {
    expect(() => parsePublicEnv({})).toThrow(/SUPABASE_URL[\s\S]*PUBLISHABLE_KEY is missing/);
  });
});
