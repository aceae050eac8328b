import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../gateway.ts";
import { authenticate, type Caller } from "./auth.ts";
import { ApiError, errors, fromPgError } from "./errors.ts";
import { type Call, decodeSegment, type LoadedState, profileSchema, type RestState } from "./call.ts";
import { handleRead } from "./read-handler.ts";
import { parsePreferences } from "./request.ts";
import { send, sendError } from "./respond.ts";
import { handleRpc } from "./rpc-handler.ts";
import { closestName, relationKey } from "./schema-cache.ts";
import { handleDelete, handleInsert, handlePut, handleUpdate } from "./write-handler.ts";

/** Routes a /rest/v1 request to its handler and turns every failure into PostgREST's error response. */

export async function handleRest(service: RestState, req: IncomingMessage, res: ServerResponse, gw: GatewayContext): Promise<void> {
  const method = req.method ?? "GET";
  const head = method === "HEAD";
  let caller: Caller | undefined;
  try {
    // One schema cache for the whole request, even if a reload lands meanwhile.
    if (!service.cache) throw new ApiError(503, "PGRST002", "Could not query the database for the schema cache. Retrying.");
    const state: LoadedState = { ...service, cache: service.cache };
    caller = authenticate(gw.bearer);
    const url = gw.url;
    const rawPath = url.pathname.replace(/^\/rest\/v1/, "");
    const segments = rawPath.split("/").filter(Boolean).map(decodeSegment);
    const schema = profileSchema(state, req, method);
    const prefs = parsePreferences(req.headers.prefer);
    if (prefs.handling === "strict" && prefs.invalid.length) throw errors.invalidPreferences(prefs.invalid);
    const call: Call = { req, res, url, method, caller, schema, prefs, head };
    if (segments.length === 0) return openApiRoot(call, state);
    if (segments[0] === "rpc" && segments.length === 2) return await handleRpc(state, call, segments[1]);
    if (segments.length !== 1) throw errors.invalidPath();
    const relation = state.cache.relations.get(relationKey(schema, segments[0]));
    if (!relation) {
      const names = [...state.cache.relations.values()].filter((r) => r.schema === schema).map((r) => r.name);
      throw errors.tableNotFound(schema, segments[0], closestName(segments[0], names));
    }
    switch (method) {
      case "GET":
      case "HEAD":
        return await handleRead(state, call, relation);
      case "POST":
        return await handleInsert(state, call, relation);
      case "PUT":
        return await handlePut(state, call, relation);
      case "PATCH":
        return await handleUpdate(state, call, relation);
      case "DELETE":
        return await handleDelete(state, call, relation);
      default:
        throw errors.unsupportedMethod(method);
    }
  } catch (error) {
    return sendError(res, toApiError(error, caller?.authenticated ?? false), head);
  }
}

function toApiError(error: unknown, authenticated: boolean): ApiError {
  if (error instanceof ApiError) return error;
  const pgError = error as { code?: string; message?: string; severity?: string };
  if (pgError && typeof pgError.code === "string" && pgError.severity) return fromPgError(error as { code: string; message: string }, authenticated);
  if (pgError?.code === "ECONNREFUSED" || pgError?.code === "ECONNRESET") {
    return new ApiError(503, "PGRST001", "Database client error. Retrying the connection.");
  }
  console.error("[rest] unexpected:", error);
  return new ApiError(500, "PGRSTX00", error instanceof Error ? error.message : "Internal error");
}

function openApiRoot(call: Call, state: LoadedState): void {
  if (call.method !== "GET" && call.method !== "HEAD") throw errors.unsupportedMethod(call.method);
  const paths: Record<string, unknown> = { "/": {} };
  for (const relation of state.cache.relations.values()) if (relation.schema === call.schema) paths[`/${relation.name}`] = {};
  for (const routines of state.cache.routines.values()) for (const r of routines) if (r.schema === call.schema) paths[`/rpc/${r.name}`] = {};
  const body = JSON.stringify({ swagger: "2.0", info: { title: "standard public schema", version: "12.2.0" }, paths });
  send(call.res, 200, { "Content-Type": "application/openapi+json; charset=utf-8" }, body, call.head);
}
