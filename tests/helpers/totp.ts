import { createHmac } from "node:crypto";

/** The 6-digit TOTP code (RFC 6238: SHA-1, 30 s steps) for a base32 secret, `offsetSteps` steps from now. */
export function totp(secret: string, offsetSteps = 0): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...secret].map((char) => alphabet.indexOf(char).toString(2).padStart(5, "0")).join("");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offsetSteps));
  const mac = createHmac("sha1", key).update(counter).digest();
  return String((mac.readUInt32BE(mac[19] & 15) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * Waits, when the current 30 s step ends within `marginMs`, until the next one has begun: the code of
 * the step before (`totp(secret, -1)`) is accepted only until this step ends (Auth allows one step
 * either way), so one computed in its last moment could be refused on arrival.
 */
export async function clearOfStepEnd(marginMs = 5_000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
