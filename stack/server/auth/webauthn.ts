import { randomBytes } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { WebAuthnSettings } from "./settings.ts";

// The WebAuthn ceremonies shared by passkeys (passkeys.ts) and WebAuthn MFA factors (factors.ts),
// in the shapes GoTrue's WebAuthn library (go-webauthn) writes: creation and request options as
// the browser's JSON forms (base64url buffers), and the session data a challenge row keeps. The
// signatures, attestation statements, origins, RP id hashes and sign counts are checked by
// @simplewebauthn/server.

/** go-webauthn's default credential parameters: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA. */
const credentialAlgorithms = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];
/** go-webauthn's default ceremony timeout (5 minutes), in milliseconds. */
const ceremonyTimeoutMs = 300_000;

type UserVerification = "required" | "preferred" | "discouraged";

/** A stored credential as a ceremony needs it (a passkey row or a WebAuthn factor's credential). */
export interface StoredCredential {
  id: Buffer;
  publicKey: Buffer;
  signCount: number;
  transports: string[];
}

/** What a challenge row keeps between the options and the verification (go-webauthn's SessionData). */
export interface SessionData {
  challenge: string;
  rpId: string;
  /** base64url of the user handle (the user id as text), absent for a discoverable sign-in. */
  user_id?: string;
  /** base64url credential ids the ceremony allows (empty: any). */
  allowed_credentials?: string[];
  userVerification: UserVerification;
  expires: string;
}

/** The fields of a newly registered credential, as GoTrue stores them. */
export interface NewCredential {
  id: Buffer;
  publicKey: Buffer;
  attestationType: string;
  aaguid: string;
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  userPresent: boolean;
  userVerified: boolean;
  attachment: string;
}

interface WebAuthnUser {
  id: string;
  name: string;
  displayName: string;
}

/** The ceremony could not be checked: the body is not a credential response. */
export class InvalidCredentialResponse extends Error {}
/** The credential response was read but does not verify. */
export class CredentialVerificationFailed extends Error {}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function newChallenge(): string {
  return base64url(randomBytes(32));
}

function descriptor(credential: Pick<StoredCredential, "id" | "transports">) {
  const entry: Record<string, unknown> = { type: "public-key", id: base64url(credential.id) };
  if (credential.transports.length) entry.transports = credential.transports;
  return entry;
}

/**
 * PublicKeyCredentialCreationOptions. Passkeys ask for a discoverable (resident) key; WebAuthn
 * factors take the authenticator's default. Attestation is never asked for.
 */
export function creationOptions(
  settings: WebAuthnSettings,
  user: WebAuthnUser,
  exclude: Pick<StoredCredential, "id" | "transports">[],
  kind: "passkey" | "factor",
  expires: Date,
): { options: Record<string, unknown>; session: SessionData } {
  const challenge = newChallenge();
  const userVerification: UserVerification = "preferred";
  const options: Record<string, unknown> = {
    rp: { name: settings.rpDisplayName, id: settings.rpId },
    user: { name: user.name, displayName: user.displayName, id: base64url(Buffer.from(user.id)) },
    challenge,
    pubKeyCredParams: credentialAlgorithms.map((alg) => ({ type: "public-key", alg })),
    timeout: ceremonyTimeoutMs,
    authenticatorSelection:
      kind === "passkey" ? { requireResidentKey: true, residentKey: "required", userVerification } : { userVerification },
    attestation: "none",
  };
  if (exclude.length) options.excludeCredentials = exclude.map(descriptor);
  return {
    options,
    session: { challenge, rpId: settings.rpId, user_id: base64url(Buffer.from(user.id)), userVerification, expires: expires.toISOString() },
  };
}

/** PublicKeyCredentialRequestOptions: `allow` empty for a discoverable (passkey, conditional UI) sign-in. */
export function requestOptions(
  settings: WebAuthnSettings,
  allow: Pick<StoredCredential, "id" | "transports">[],
  userId: string | undefined,
  expires: Date,
): { options: Record<string, unknown>; session: SessionData } {
  const challenge = newChallenge();
  const userVerification: UserVerification = "preferred";
  const options: Record<string, unknown> = { challenge, timeout: ceremonyTimeoutMs, rpId: settings.rpId, userVerification };
  if (allow.length) options.allowCredentials = allow.map(descriptor);
  const session: SessionData = { challenge, rpId: settings.rpId, userVerification, expires: expires.toISOString() };
  if (userId) session.user_id = base64url(Buffer.from(userId));
  if (allow.length) session.allowed_credentials = allow.map((credential) => base64url(credential.id));
  return { options, session };
}

const base64urlPattern = /^[A-Za-z0-9_-]*={0,2}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function base64urlField(parent: Record<string, unknown>, name: string, required = true): void {
  const value = parent[name];
  if (value === undefined || value === null || value === "") {
    if (required) throw new InvalidCredentialResponse(`${name} is missing`);
    return;
  }
  if (typeof value !== "string" || !base64urlPattern.test(value)) throw new InvalidCredentialResponse(`${name} is not base64url`);
}

/** go-webauthn's parse step: the JSON form of a PublicKeyCredential with the response fields its type needs. */
function parseCredential(raw: unknown, fields: string[], optional: string[] = []): Record<string, unknown> {
  if (!isObject(raw)) throw new InvalidCredentialResponse("credential is not an object");
  base64urlField(raw, "id");
  base64urlField(raw, "rawId", false);
  if (typeof raw.rawId === "string" && raw.rawId && raw.rawId !== raw.id) throw new InvalidCredentialResponse("id and rawId differ");
  if (raw.type !== "public-key") throw new InvalidCredentialResponse("type is not public-key");
  const response = raw.response;
  if (!isObject(response)) throw new InvalidCredentialResponse("response is missing");
  for (const field of fields) base64urlField(response, field);
  for (const field of optional) base64urlField(response, field, false);
  try {
    JSON.parse(Buffer.from(response.clientDataJSON as string, "base64url").toString("utf8"));
  } catch {
    throw new InvalidCredentialResponse("clientDataJSON is not JSON");
  }
  return {
    ...raw,
    rawId: raw.rawId || raw.id,
    clientExtensionResults: isObject(raw.clientExtensionResults) ? raw.clientExtensionResults : {},
  };
}

function checkUser(session: SessionData, userHandle: string | undefined): void {
  if (session.user_id && userHandle !== undefined && userHandle !== session.user_id) {
    throw new CredentialVerificationFailed("the user handle is not the challenge's user");
  }
}

/** Verifies an attestation (navigator.credentials.create) against the challenge's session data. */
export async function verifyRegistration(settings: WebAuthnSettings, session: SessionData, raw: unknown): Promise<NewCredential> {
  const response = parseCredential(raw, ["clientDataJSON", "attestationObject"]) as unknown as RegistrationResponseJSON;
  let result;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge: session.challenge,
      expectedOrigin: settings.rpOrigins,
      expectedRPID: session.rpId,
      requireUserVerification: session.userVerification === "required",
      supportedAlgorithmIDs: credentialAlgorithms,
    });
  } catch (error) {
    throw new CredentialVerificationFailed((error as Error).message);
  }
  if (!result.verified) throw new CredentialVerificationFailed("attestation did not verify");
  const info = result.registrationInfo;
  const transports = Array.isArray(response.response.transports) ? response.response.transports.filter((t) => typeof t === "string") : [];
  return {
    id: Buffer.from(info.credential.id, "base64url"),
    publicKey: Buffer.from(info.credential.publicKey),
    attestationType: info.fmt,
    aaguid: info.aaguid,
    signCount: info.credential.counter,
    transports,
    backupEligible: info.credentialDeviceType === "multiDevice",
    backedUp: info.credentialBackedUp,
    userPresent: true,
    userVerified: info.userVerified,
    attachment: typeof response.authenticatorAttachment === "string" ? response.authenticatorAttachment : "",
  };
}

/** The credential id and user handle an assertion names (before its credential is looked up). */
export function assertionIdentity(raw: unknown): { credentialId: Buffer; userHandle: string | undefined } {
  const parsed = parseCredential(raw, ["clientDataJSON", "authenticatorData", "signature"], ["userHandle"]);
  const response = parsed.response as Record<string, unknown>;
  const userHandle = typeof response.userHandle === "string" && response.userHandle ? response.userHandle : undefined;
  return { credentialId: Buffer.from(parsed.rawId as string, "base64url"), userHandle };
}

/**
 * Verifies an assertion (navigator.credentials.get) made with `credential`: the challenge, type,
 * origin, RP id hash, user presence (and verification when the options required it), the
 * signature over authenticatorData || SHA-256(clientDataJSON), and a sign count that must grow
 * whenever either side is non-zero. Answers the new sign count and backup state.
 */
export async function verifyAssertion(
  settings: WebAuthnSettings,
  session: SessionData,
  raw: unknown,
  credential: StoredCredential,
): Promise<{ signCount: number; backedUp: boolean; userVerified: boolean }> {
  const parsed = parseCredential(raw, ["clientDataJSON", "authenticatorData", "signature"], ["userHandle"]);
  const { userHandle } = assertionIdentity(raw);
  checkUser(session, userHandle);
  const id = parsed.rawId as string;
  if (session.allowed_credentials?.length && !session.allowed_credentials.includes(id)) {
    throw new CredentialVerificationFailed("the credential is not one the challenge allows");
  }
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: parsed as unknown as AuthenticationResponseJSON,
      expectedChallenge: session.challenge,
      expectedOrigin: settings.rpOrigins,
      expectedRPID: session.rpId,
      credential: { id: base64url(credential.id), publicKey: new Uint8Array(credential.publicKey), counter: credential.signCount },
      requireUserVerification: session.userVerification === "required",
    });
  } catch (error) {
    throw new CredentialVerificationFailed((error as Error).message);
  }
  if (!result.verified) throw new CredentialVerificationFailed("assertion did not verify");
  const info = result.authenticationInfo;
  return { signCount: info.newCounter, backedUp: info.credentialBackedUp, userVerified: info.userVerified };
}

// A few well-known authenticators by AAGUID (the passkey-authenticator-aaguids community list);
// GoTrue names a new passkey from the whole list, the stack from these, else "Passkey".
const authenticatorNames: Record<string, string> = {
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
};

/** GoTrue's PasskeyFriendlyName: the authenticator's name by AAGUID, else "Passkey". */
export function passkeyFriendlyName(aaguid: string): string {
  return authenticatorNames[aaguid.toLowerCase()] ?? "Passkey";
}
