import { createHmac, randomBytes } from "node:crypto";
import { renderSVG } from "uqr";

// RFC 6238 TOTP as GoTrue configures it: SHA-1, 6 digits, 30-second steps, one step of skew either
// way, a 20-byte secret written in unpadded base32.

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const period = 30;
const digits = 6;

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, "").toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error("invalid base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export const generateTotpSecret = () => base32Encode(randomBytes(20));

const timeStep = (nowMs = Date.now()) => Math.floor(nowMs / 1000 / period);

/** The code for one time step (RFC 4226's HOTP with the step as counter). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The time step whose code `code` is (current step ±1), or undefined when it matches none. */
export function matchTotp(secret: string, code: string, nowMs = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const now = timeStep(nowMs);
  for (const step of [now, now - 1, now + 1]) if (totpCode(secret, step) === code) return step;
  return undefined;
}

/** Path escaping as Go's url.URL writes it: the sub-delimiters, ":" and "@" stay as they are. */
const escapePath = (text: string) =>
  encodeURIComponent(text).replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The key URI authenticator apps read (Google's Key Uri Format, parameters in sorted order). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const query = new URLSearchParams({ algorithm: "SHA1", digits: String(digits), issuer, period: String(period), secret });
  return `otpauth://totp/${escapePath(issuer)}:${escapePath(account)}?${query.toString()}`;
}

/** The QR code of the key URI as an SVG document (GoTrue answers raw SVG; auth-js makes it a data URI). */
export const qrCodeSvg = (uri: string) => renderSVG(uri, { ecc: "H", pixelSize: 3 });
