import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "./errors.ts";

const maxJsonBytes = 1024 * 1024;

export function sendBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(payload), ...headers });
  res.end(payload);
}

/** A JSON request body, as Fastify parses it: an empty body is `{}`-less (undefined). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxJsonBytes) throw errors.entityTooLarge("request body");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.validation("Body is not valid JSON but content-type is set to 'application/json'");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw errors.validation("body must be object");
  return value as Record<string, unknown>;
}

/** Fastify-style schema checks for the few body fields each route needs. */
export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined) throw errors.validation(`body must have required property '${field}'`);
  if (typeof value !== "string") throw errors.validation(`body/${field} must be string`);
  return value;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw errors.validation(`body/${field} must be string`);
  return value;
}

export function requireInteger(body: Record<string, unknown>, field: string, minimum: number): number {
  const value = body[field];
  if (value === undefined) throw errors.validation(`body must have required property '${field}'`);
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) throw errors.validation(`body/${field} must be integer`);
  if (number < minimum) throw errors.validation(`body/${field} must be >= ${minimum}`);
  return number;
}

export function requireStringArray(body: Record<string, unknown>, field: string): string[] {
  const value = body[field];
  if (value === undefined) throw errors.validation(`body must have required property '${field}'`);
  if (!Array.isArray(value)) throw errors.validation(`body/${field} must be array`);
  if (value.length < 1) throw errors.validation(`body/${field} must NOT have fewer than 1 items`);
  value.forEach((item, index) => {
    if (typeof item !== "string") throw errors.validation(`body/${field}/${index} must be string`);
  });
  return value as string[];
}

/** Reads and discards what is left of a request body, so a refused upload still gets its answer. */
export function drain(req: IncomingMessage): void {
  if (!req.complete) req.resume();
}
