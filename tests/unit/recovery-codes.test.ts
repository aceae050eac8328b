// Recovery codes: made from the random source as 16 base32 characters in four groups, read back
// whatever the spacing, dashes or case, and hashed per account.
import { describe, expect, test } from "vitest";
import {
  formatRecoveryCode,
  hashRecoveryCode,
  newRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
  recoveryMessages,
} from "@/lib/auth/recovery-codes";

const shape = /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/;

describe("newRecoveryCode", () => {
  test("16 base32 characters from the random source, shown in four groups of four", () => {
    const code = newRecoveryCode();
    expect(code).toMatch(shape);
    // Each byte's low five bits pick the character: 0 → A, 31 → 7, 32 → A again.
    const fixed = (bytes: Uint8Array) => bytes.map((_, i) => [0, 31, 32, 25, 26][i % 5]);
    expect(newRecoveryCode(fixed)).toBe("A7AZ-2A7A-Z2A7-AZ2A");
  });

  test("ten different codes at a time, each uniformly spread over the alphabet", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(shape);
    const counts = new Map<string, number>();
    for (let i = 0; i < 400; i++) for (const char of newRecoveryCode().replace(/-/g, "")) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 6400 characters over 32: about 200 each.
    for (const count of counts.values()) expect(count).toBeGreaterThan(120);
  });

  test("a repeated random answer still gives ten different codes", () => {
    let n = 0;
    const sometimesRepeating = (bytes: Uint8Array) => bytes.fill(Math.floor(n++ / 2));
    expect(new Set(newRecoveryCodes(sometimesRepeating)).size).toBe(10);
  });
});

describe("normaliseRecoveryCode", () => {
  test("spaces, dashes, dots, underscores and case are ignored", () => {
    for (const typed of [
      "K7QM-3XDF-P2AH-W4ZC",
      "k7qm-3xdf-p2ah-w4zc",
      " k7qm 3xdf p2ah w4zc ",
      "K7QM3XDFP2AHW4ZC",
      "k7qm–3xdf—p2ah_w4zc",
      "K7QM.3XDF.P2AH.W4ZC",
    ]) {
      expect(normaliseRecoveryCode(typed)).toEqual({ code: "K7QM3XDFP2AHW4ZC" });
    }
  });

  test("0, 1 and 8, which base32 never uses, are read as O, I and B", () => {
    expect(normaliseRecoveryCode("0000-1111-8888-abcd")).toEqual({ code: "OOOOIIIIBBBBABCD" });
  });

  test("anything else is refused with what a code looks like", () => {
    expect(normaliseRecoveryCode("")).toEqual({ error: recoveryMessages.empty });
    expect(normaliseRecoveryCode("  - ")).toEqual({ error: recoveryMessages.empty });
    expect(normaliseRecoveryCode("K7QM-3XDF-P2AH")).toEqual({ error: recoveryMessages.format });
    expect(normaliseRecoveryCode("K7QM-3XDF-P2AH-W4ZC-A")).toEqual({ error: recoveryMessages.format });
    expect(normaliseRecoveryCode("K7QM-3XDF-P2AH-W4Z9")).toEqual({ error: recoveryMessages.format });
    expect(normaliseRecoveryCode("123456")).toEqual({ error: recoveryMessages.format });
    expect(normaliseRecoveryCode("K7QM-3XDF-P2AH-W4Z!")).toEqual({ error: recoveryMessages.format });
  });

  test("a code made and shown reads back as itself", () => {
    for (const code of newRecoveryCodes()) {
      const read = normaliseRecoveryCode(code);
      expect(read).toEqual({ code: code.replace(/-/g, "") });
      expect(formatRecoveryCode(code.replace(/-/g, ""))).toBe(code);
    }
  });
});

describe("hashRecoveryCode", () => {
  const alice = "0b7c8f5e-3c1a-4b8e-9a43-7d3c2f1e0a11";
  const bob = "7f1e2d3c-4b5a-4698-8776-655443322110";

  test("SHA-256 of '<user id>:<code>' in hex: the same code hashes differently for another account", () => {
    const hash = hashRecoveryCode(alice, "K7QM3XDFP2AHW4ZC");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // printf '%s' '<alice>:K7QM3XDFP2AHW4ZC' | sha256sum
    expect(hash).toBe("59113e51d6dd0dcb544ea8b07da8d29353d1d3a39ea389af85348f6ecc73101b");
    expect(hashRecoveryCode(alice, "K7QM3XDFP2AHW4ZC")).toBe(hash);
    expect(hashRecoveryCode(alice.toUpperCase(), "K7QM3XDFP2AHW4ZC")).toBe(hash);
    expect(hashRecoveryCode(bob, "K7QM3XDFP2AHW4ZC")).not.toBe(hash);
    expect(hashRecoveryCode(alice, "K7QM3XDFP2AHW4ZD")).not.toBe(hash);
  });
});
