// A software WebAuthn authenticator for the passkey and WebAuthn MFA suites: an ES256 key pair
// per credential, attestation objects in the "none" format and assertions signed over
// authenticatorData || SHA-256(clientDataJSON), written out from the WebAuthn spec (with a small
// CBOR encoder) rather than taken from the server, so the tests check the server against the
// standard. What it answers has the browser's JSON form (and `toJSON`, as auth-js serialises a
// PublicKeyCredential).
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 255]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** RFC 8949 encoding of integers, byte and text strings, arrays and maps (what WebAuthn needs). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
/** Options fields arrive as base64url strings (raw JSON) or ArrayBuffers (after auth-js deserialises them). */
const bytesOf = (value: string | ArrayBuffer | Uint8Array) =>
  typeof value === "string" ? Buffer.from(value, "base64url") : Buffer.from(value instanceof ArrayBuffer ? new Uint8Array(value) : value);
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();

export const flags = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };

export interface Ceremony {
  /** The origin the "browser" reports in clientDataJSON. */
  origin?: string;
  /** The RP id whose hash goes into authenticatorData (defaults to the options'). */
  rpId?: string;
  /** The authenticator data flags (defaults: UP|UV, plus BE|BS for a synced passkey). */
  flags?: number;
  /** A sign count to report instead of the next one. */
  signCount?: number;
  /** A challenge to sign instead of the options' (base64url). */
  challenge?: string;
}

interface CreationOptionsJSON {
  rp: { id?: string; name: string };
  user: { id: string | ArrayBuffer };
  challenge: string | ArrayBuffer;
}

interface RequestOptionsJSON {
  rpId?: string;
  challenge: string | ArrayBuffer;
}

export class SoftCredential {
  readonly id = randomBytes(32);
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly aaguid: Buffer;
  userHandle: Buffer | undefined;
  rpId = "";
  signCount = 0;

  constructor(aaguid = Buffer.alloc(16)) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.aaguid = aaguid;
  }

  get idBase64url(): string {
    return b64url(this.id);
  }

  /** The credential's public key as a COSE_Key (EC2, P-256, ES256). */
  coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: "jwk" });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(rpId: string, flagBits: number, count: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(count);
    return Buffer.concat([sha256(Buffer.from(rpId)), Buffer.from([flagBits]), counter, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create(): an attestation object in the "none" format. */
  create(options: CreationOptionsJSON, ceremony: Ceremony & { origin: string }) {
    this.rpId = ceremony.rpId ?? options.rp.id ?? "";
    this.userHandle = bytesOf(options.user.id);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.id.length);
    const attested = Buffer.concat([this.aaguid, length, this.id, this.coseKey()]);
    const authData = this.authData(
      this.rpId,
      ceremony.flags ?? flags.up | flags.uv | flags.be | flags.bs | flags.at,
      this.signCount,
      attested,
    );
    const clientDataJSON = this.clientData("webauthn.create", ceremony.challenge ?? b64url(bytesOf(options.challenge)), ceremony.origin);
    const attestationObject = cbor({ fmt: "none", attStmt: {}, authData });
    const json = {
      id: this.idBase64url,
      rawId: this.idBase64url,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal" as const, "hybrid" as const],
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
    return { ...json, toJSON: () => json };
  }

  /** navigator.credentials.get(): an assertion with the next sign count (or the one asked for). */
  get(options: RequestOptionsJSON, ceremony: Ceremony & { origin: string }) {
    if (ceremony.signCount === undefined) this.signCount += 1;
    const count = ceremony.signCount ?? this.signCount;
    const authData = this.authData(
      ceremony.rpId ?? options.rpId ?? this.rpId,
      ceremony.flags ?? flags.up | flags.uv | flags.be | flags.bs,
      count,
    );
    const clientDataJSON = this.clientData("webauthn.get", ceremony.challenge ?? b64url(bytesOf(options.challenge)), ceremony.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    const json = {
      id: this.idBase64url,
      rawId: this.idBase64url,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: b64url(this.userHandle) } : {}),
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
    return { ...json, toJSON: () => json };
  }
}
