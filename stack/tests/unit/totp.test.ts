// The TOTP arithmetic against RFC 6238's own test vectors (Appendix B, SHA-1 seed
// "12345678901234567890", the last 6 of its 8 digits), and the key URI authenticator apps read.
import { describe, expect, test } from "vitest";
import { base32Decode, base32Encode, matchTotp, otpauthUri, totpCode } from "../../server/auth/totp.ts";

const seed = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP", () => {
  test.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
    [20000000000, "353130"],
  ])("at %i s the code is %s", (seconds, code) => {
    expect(totpCode(seed, Math.floor(seconds / 30))).toBe(code);
  });

  test("a code matches its own step and one step either side, never further, and only six digits", () => {
    const at = 1111111111 * 1000;
    const step = Math.floor(at / 30_000);
    expect(matchTotp(seed, totpCode(seed, step), at)).toBe(step);
    expect(matchTotp(seed, totpCode(seed, step - 1), at)).toBe(step - 1);
    expect(matchTotp(seed, totpCode(seed, step + 1), at)).toBe(step + 1);
    expect(matchTotp(seed, totpCode(seed, step + 2), at)).toBeUndefined();
    expect(matchTotp(seed, totpCode(seed, step - 2), at)).toBeUndefined();
    expect(matchTotp(seed, ` ${totpCode(seed, step)}`, at)).toBeUndefined();
  });

  test("base32 round-trips 20-byte secrets without padding", () => {
    expect(seed).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode(seed).toString()).toBe("12345678901234567890");
  });

  test("the key URI keeps the issuer and account readable and lists its parameters in order", () => {
    expect(otpauthUri("localhost:3000", "ada@example.com", seed)).toBe(
      `otpauth://totp/localhost:3000:ada@example.com?algorithm=SHA1&digits=6&issuer=localhost%3A3000&period=30&secret=${seed}`,
    );
    expect(otpauthUri("Cue Point", "a/b", seed)).toMatch(/^otpauth:\/\/totp\/Cue%20Point:a%2Fb\?/);
  });
});
