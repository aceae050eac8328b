import type { IncomingMessage } from "node:http";
import { AuthError, badRequest } from "./errors.ts";

const maxBodyBytes = 1024 * 1024;

/** Reads the request body; larger bodies than GoTrue would take are refused. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new AuthError(413, "validation_failed", "Request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type Params = Record<string, unknown>;

/** The JSON object body GoTrue's handlers decode; an empty body is an empty object. */
export async function readParams(req: IncomingMessage): Promise<Params> {
  const text = await readBody(req);
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest("bad_json", `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("bad_json", "Could not parse request body as JSON: json: cannot unmarshal into an object");
  }
  return value as Params;
}

/** A string field: absent is "", any other type is a bad_json error (as Go's decoder reports it). */
export function stringField(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string")
    throw badRequest(
      "bad_json",
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${name} of type string`,
    );
  return value;
}

export function objectField(params: Params, name: string): Record<string, unknown> | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw badRequest(
      "bad_json",
      `Could not parse request body as JSON: json: cannot unmarshal ${Array.isArray(value) ? "array" : typeof value} into Go struct field .${name} of type map[string]interface {}`,
    );
  }
  return value as Record<string, unknown>;
}

export function booleanField(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw badRequest(
      "bad_json",
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof value} into Go struct field .${name} of type bool`,
    );
  return value;
}

export function clientIp(req: IncomingMessage): string {
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")[0]
    ?.trim();
  return forwarded || req.socket.remoteAddress || "127.0.0.1";
}

/** The first comma-separated value of the rate-limit header, or undefined (no header configured or sent). */
export function rateLimitKey(req: IncomingMessage, header: string): string | undefined {
  if (!header) return undefined;
  const value = req.headers[header.toLowerCase()];
  const first = String(Array.isArray(value) ? value.join(", ") : (value ?? ""))
    .split(",")[0]
    ?.trim();
  return first || undefined;
}
