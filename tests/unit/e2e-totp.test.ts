import { describe, expect, test } from "vitest";
import { codeLifetimeMs, stepToUse, totpAt } from "../../e2e/support/totp";

// The e2e authenticator hands out codes Auth still accepts by the time a browser has submitted
// them: a step's code is accepted until the end of the step after it (one step of skew).
const step = 60_000_000;
const at = (secondsIntoStep: number) => step * 30_000 + secondsIntoStep * 1000;
/** Whether Auth (current step ±1) accepts `used` at `nowMs`. */
const accepted = (used: number, nowMs: number) => Math.abs(Math.floor(nowMs / 30_000) - used) <= 1;

describe("e2e authenticator steps", () => {
  test("early in a step, the previous step's code comes first (later ones are saved for later codes)", () => {
    expect(stepToUse(at(0), -Infinity)).toBe(step - 1);
    expect(stepToUse(at(5), step - 1)).toBe(step);
    expect(stepToUse(at(5), step)).toBe(step + 1);
    expect(stepToUse(at(5), step + 1)).toBeUndefined();
  });

  test("near a step's end the previous step's code is skipped: it would be refused a moment later", () => {
    const late = at(29.5);
    const chosen = stepToUse(late, -Infinity)!;
    expect(chosen).toBe(step);
    expect(accepted(chosen, late + codeLifetimeMs)).toBe(true);
  });

  test("every code handed out is still accepted for as long as a submit may take", () => {
    for (let ms = 0; ms < 60_000; ms += 250) {
      const nowMs = at(0) + ms;
      for (const lastStep of [-Infinity, step - 2, step - 1, step, step + 1]) {
        const chosen = stepToUse(nowMs, lastStep);
        if (chosen === undefined) continue;
        expect(chosen).toBeGreaterThan(lastStep);
        expect(accepted(chosen, nowMs), `${ms} ms after lastStep ${lastStep}`).toBe(true);
        expect(accepted(chosen, nowMs + codeLifetimeMs - 1), `${ms} ms after lastStep ${lastStep}`).toBe(true);
      }
    }
  });

  test("codes are RFC 6238's (the SHA-1 test vector at 59 s)", () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits; 6 digits: 287082).
    expect(totpAt("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 1)).toBe("287082");
  });
});
