// Authenticator codes for e2e, computed from the setup key as an app would (RFC 6238: SHA-1,
// 6 digits, 30-second steps). Auth accepts the step before and after the current one and never the
// same step twice, so `nextCode` hands out steps in order.
import { createHmac } from "node:crypto";

const stepMs = 30_000;
/**
 * How long a handed-out code must stay valid at least: enough for the browser to fill and submit a
 * form and the server to verify it on a busy machine.
 */
export const codeLifetimeMs = 10_000;

function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/\s+/g, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

export function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  return String((mac.readUInt32BE(mac[19] & 15) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * The step to answer with at `nowMs`: the earliest one later than `lastStep` that Auth accepts now
 * and still will `codeLifetimeMs` from now, or undefined when none is (wait and ask again). A step's
 * code is accepted until the end of the step after it, so the previous step's code is offered only
 * early in the current step — near its end the step rolls over before the code reaches Auth.
 */
export function stepToUse(nowMs: number, lastStep: number): number | undefined {
  const now = Math.floor(nowMs / stepMs);
  return [now - 1, now, now + 1].find((step) => step > lastStep && (step + 2) * stepMs - nowMs >= codeLifetimeMs);
}

/** Codes for one authenticator, each from a later step than the last (waiting when none is valid yet). */
export function authenticator(secret: string) {
  let lastStep = -Infinity;
  return {
    async nextCode(): Promise<string> {
      for (;;) {
        const step = stepToUse(Date.now(), lastStep);
        if (step !== undefined) {
          lastStep = step;
          return totpAt(secret, step);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
    /** A code that is none of the valid ones right now. */
    wrongCode(): string {
      const now = Math.floor(Date.now() / stepMs);
      const valid = new Set([now - 2, now - 1, now, now + 1, now + 2].map((step) => totpAt(secret, step)));
      for (let n = 0; ; n++) {
        const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
        if (!valid.has(candidate)) return candidate;
      }
    },
  };
}
