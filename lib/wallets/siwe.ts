// EIP-4361 (Sign-In with Ethereum) messages for linking a wallet: reading one, and the checks
// that need no database or chain (site, URI, chain, times). Plain TypeScript with relative imports
// only, so the link-wallet edge function (Deno) and the app's tests share it.
import { type ChainConfig, chainNames, findChain } from "../chain/chains.ts";
import { linkWalletMessages } from "../validation/wallet.ts";

export interface SiweFields {
  domain: string;
  address: `0x${string}`;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
}

const headerLine = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)?([^\s/?#]+) wants you to sign in with your Ethereum account:$/;
const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const fieldLine = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID): (.*)$/;

function time(value: string | undefined): Date | undefined | null {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return timestamp.test(value) && !Number.isNaN(date.getTime()) ? date : null;
}

/** The message's fields, or null when it is not a well-formed EIP-4361 message with a nonce. */
export function parseSiwe(text: string): SiweFields | null {
  const lines = text.split("\n");
  const domain = headerLine.exec(lines[0] ?? "")?.[1];
  const address = lines[1] ?? "";
  if (!domain || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
  let i = 2;
  while (lines[i] === "") i++;
  let statement: string | undefined;
  if (i < lines.length && !lines[i].startsWith("URI: ")) {
    statement = lines[i++];
    while (lines[i] === "") i++;
  }
  const fields = new Map<string, string>();
  for (; i < lines.length; i++) {
    if (lines[i] === "Resources:") {
      for (i++; i < lines.length; i++) if (!lines[i].startsWith("- ")) return null;
      break;
    }
    const match = fieldLine.exec(lines[i]);
    if (!match || fields.has(match[1])) return null;
    fields.set(match[1], match[2]);
  }
  const chainId = fields.get("Chain ID") ?? "";
  const nonce = fields.get("Nonce") ?? "";
  const issuedAt = time(fields.get("Issued At"));
  const expirationTime = time(fields.get("Expiration Time"));
  const notBefore = time(fields.get("Not Before"));
  if (!fields.get("URI") || fields.get("Version") !== "1" || !/^[1-9][0-9]{0,15}$/.test(chainId)) return null;
  if (!/^[A-Za-z0-9]{8,}$/.test(nonce) || !issuedAt || expirationTime === null || notBefore === null) return null;
  return {
    domain,
    address: address as `0x${string}`,
    statement,
    uri: fields.get("URI")!,
    version: "1",
    chainId: Number(chainId),
    nonce,
    issuedAt,
    expirationTime,
    notBefore,
  };
}

export type SiweCheck = { ok: true } | { ok: false; code: string; error: string };

const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The site the message must name: the domain is the site's host and the URI is on the site. On a
 * development site (localhost) any local port is the same site, as Supabase Auth treats it.
 */
function sameSite(site: URL, host: string): boolean {
  if (host === site.host) return true;
  const hostname = host.replace(/:\d+$/, "");
  return loopback.has(site.hostname) && loopback.has(hostname);
}

/** How long a signed message stays usable, at most: the nonce's own lifetime. */
const messageLifetimeMs = 10 * 60 * 1000;

export function checkSiwe(fields: SiweFields, options: { siteUrl: string; now: Date; chains: ChainConfig }): SiweCheck {
  const site = new URL(options.siteUrl);
  if (!sameSite(site, fields.domain)) return { ok: false, code: "other_domain", error: linkWalletMessages.otherDomain };
  let uri: URL;
  try {
    uri = new URL(fields.uri);
  } catch {
    return { ok: false, code: "other_uri", error: linkWalletMessages.otherUri };
  }
  if (uri.protocol !== site.protocol || !sameSite(site, uri.host) || uri.host !== fields.domain) {
    return { ok: false, code: "other_uri", error: linkWalletMessages.otherUri };
  }
  const chain = findChain(options.chains, fields.chainId);
  if (!chain) {
    return {
      ok: false,
      code: "unsupported_chain",
      error: `Chain ${fields.chainId} isn't supported. Switch your wallet to ${chainNames(options.chains)} and try again.`,
    };
  }
  const now = options.now.getTime();
  if (fields.expirationTime && now >= fields.expirationTime.getTime())
    return { ok: false, code: "expired", error: linkWalletMessages.expired };
  if (now > fields.issuedAt.getTime() + messageLifetimeMs) return { ok: false, code: "expired", error: linkWalletMessages.expired };
  // a minute of clock difference between the wallet's device and the server is tolerated
  if (fields.issuedAt.getTime() > now + 60_000 || (fields.notBefore && fields.notBefore.getTime() > now + 60_000)) {
    return { ok: false, code: "not_yet_valid", error: linkWalletMessages.notYetValid };
  }
  return { ok: true };
}

/** The message the Wallets section asks the wallet to sign. */
export function buildSiwe(input: {
  domain: string;
  address: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
  statement: string;
}): string {
  return [
    `${input.domain} wants you to sign in with your Ethereum account:`,
    input.address,
    "",
    input.statement,
    "",
    `URI: ${input.uri}`,
    "Version: 1",
    `Chain ID: ${input.chainId}`,
    `Nonce: ${input.nonce}`,
    `Issued At: ${input.issuedAt.toISOString()}`,
    `Expiration Time: ${input.expirationTime.toISOString()}`,
  ].join("\n");
}

export const linkStatement = "Link this wallet to your Cuepoint account.";
