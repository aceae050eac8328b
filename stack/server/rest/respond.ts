import type { ServerResponse } from "node:http";
import type { ApiError } from "./errors.ts";

/** Writes PostgREST-shaped responses. */

export function sendError(res: ServerResponse, error: ApiError, head = false): void {
  const payload = JSON.stringify(error.body());
  res.writeHead(error.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": head ? 0 : Buffer.byteLength(payload),
    "Proxy-Status": `PostgREST; error=${error.code}`,
    ...error.headers,
  });
  res.end(head ? undefined : payload);
}

export function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | undefined, head: boolean): void {
  if (body === undefined || head) {
    res.writeHead(status, body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(body)) });
  res.end(body);
}

export function contentRange(offset: number, pageTotal: number, total: number | null): string {
  const range = pageTotal > 0 ? `${offset}-${offset + pageTotal - 1}` : "*";
  return `${range}/${total ?? "*"}`;
}

export const contentTypes = {
  json: "application/json; charset=utf-8",
  object: "application/vnd.pgrst.object+json; charset=utf-8",
  array: "application/vnd.pgrst.array+json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
} as const;
