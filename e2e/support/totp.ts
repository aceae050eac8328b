// Authenticator codes for e2e, computed from the setup key as an app would (RFC 6238: SHA-1,
// 6 digits, 30-second steps). Auth accepts the step before and after the current one and never the
// same step twice, so `nextCode` hands out steps in order.
import { createHmac } from "node:crypto";

function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/\s+/g, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  return String((mac.readUInt32BE(mac[19] & 15) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** Codes for one authenticator, each from a later step than the last (waiting when none is valid yet). */
export function authenticator(secret: string) {
  let lastStep = -Infinity;
  return {
    async nextCode(): Promise<string> {
      for (;;) {
        const now = Math.floor(Date.now() / 30_000);
        const step = [now - 1, now, now + 1].find((candidate) => candidate > lastStep);
        if (step !== undefined) {
          lastStep = step;
          return totpAt(secret, step);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
    /** A code that is none of the valid ones right now. */
    wrongCode(): string {
      const now = Math.floor(Date.now() / 30_000);
      const valid = new Set([now - 1, now, now + 1].map((step) => totpAt(secret, step)));
      for (let n = 0; ; n++) {
        const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
        if (!valid.has(candidate)) return candidate;
      }
    },
  };
}
