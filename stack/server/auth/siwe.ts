/** An EIP-4361 (Sign-In with Ethereum) message, as GoTrue's parser reads it. */
export interface SiweMessage {
  scheme?: string;
  domain: string;
  address: string;
  statement?: string;
  uri: URL;
  version: string;
  chainId: number;
  nonce?: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
  requestId?: string;
  resources: string[];
}

const header = /^(?:([a-zA-Z][a-zA-Z0-9+\-.]*):\/\/)?([^\s/?#]+) wants you to sign in with your Ethereum account:$/;
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class SiweParseError extends Error {}

function time(value: string, field: string): Date {
  const date = new Date(value);
  if (!rfc3339.test(value) || Number.isNaN(date.getTime())) throw new SiweParseError(`siwe: ${field} is not a valid RFC 3339 timestamp`);
  return date;
}

/**
 * Parses the message auth-js's signInWithWeb3 builds. The nonce is optional (auth-js omits it
 * unless given one); when present it must be at least 8 alphanumeric characters.
 */
export function parseSiweMessage(text: string): SiweMessage {
  const lines = text.split("\n");
  const head = header.exec(lines[0] ?? "");
  if (!head) throw new SiweParseError("siwe: message must start with a valid domain and the sign-in line");
  const address = lines[1] ?? "";
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new SiweParseError("siwe: message does not contain a valid Ethereum address");
  let i = 2;
  while (i < lines.length && lines[i] === "") i++;
  let statement: string | undefined;
  if (i < lines.length && !lines[i].startsWith("URI: ")) {
    statement = lines[i++];
    while (i < lines.length && lines[i] === "") i++;
  }
  const fields = new Map<string, string>();
  const resources: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === "Resources:") {
      for (i++; i < lines.length && lines[i].startsWith("- "); i++) resources.push(lines[i].slice(2));
      if (i < lines.length) throw new SiweParseError("siwe: unexpected content after resources");
      break;
    }
    const match = /^(URI|Version|Chain ID|Nonce|Issued At|Expiration Time|Not Before|Request ID): (.*)$/.exec(line);
    if (!match || fields.has(match[1])) throw new SiweParseError(`siwe: unexpected line "${line.slice(0, 64)}"`);
    fields.set(match[1], match[2]);
  }
  const uriText = fields.get("URI");
  if (!uriText) throw new SiweParseError("siwe: URI is required");
  let uri: URL;
  try {
    uri = new URL(uriText);
  } catch {
    throw new SiweParseError("siwe: URI is not a valid URI");
  }
  const version = fields.get("Version");
  if (version !== "1") throw new SiweParseError("siwe: Version must be 1");
  const chain = fields.get("Chain ID") ?? "";
  if (!/^[1-9][0-9]{0,15}$/.test(chain)) throw new SiweParseError("siwe: Chain ID must be a positive integer (EIP-155)");
  const nonce = fields.get("Nonce");
  if (nonce !== undefined && !/^[a-zA-Z0-9]{8,}$/.test(nonce))
    throw new SiweParseError("siwe: Nonce must be at least 8 alphanumeric characters");
  const issued = fields.get("Issued At");
  if (!issued) throw new SiweParseError("siwe: Issued At is required");
  return {
    scheme: head[1],
    domain: head[2],
    address,
    statement,
    uri,
    version,
    chainId: Number(chain),
    nonce,
    issuedAt: time(issued, "Issued At"),
    expirationTime: fields.has("Expiration Time") ? time(fields.get("Expiration Time")!, "Expiration Time") : undefined,
    notBefore: fields.has("Not Before") ? time(fields.get("Not Before")!, "Not Before") : undefined,
    requestId: fields.get("Request ID"),
    resources,
  };
}
