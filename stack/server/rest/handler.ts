import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayContext } from "../gateway.ts";
import { authenticate, type Caller } from "./auth.ts";
import { ApiError, fromPgError } from "./errors.ts";
import { type Executor, preparedName, runStatement, settingsFor } from "./execute.ts";
import { type Plan, planRequest } from "./plan.ts";
import { parseRequest, type RestOptions, type ShapeParts } from "./request.ts";
import { respond, sendError } from "./respond.ts";
import { relationKey, type SchemaCache } from "./schema-cache.ts";
import { buildStatement, type Statement } from "./statement.ts";

/**
 * A /rest/v1 request, forward through PostgREST's pipeline: parse the request once (request.ts),
 * plan it against the schema cache (plan.ts), build its one statement (statement.ts), run it
 * (execute.ts), shape the response (respond.ts). Every failure becomes PostgREST's error response.
 */

export interface RestState {
  cache: SchemaCache | undefined;
  executor: Executor;
  options: RestOptions;
  /** Reads by request shape (role, schema, Accept, Prefer, Range, path and query): plan and statement, built once. */
  plans: Map<string, CachedRead>;
}

interface CachedRead {
  parts: ShapeParts;
  plan: Plan;
  statement: Statement;
  hits: number;
}

const maxCachedPlans = 2000;

export async function handleRest(service: RestState, req: IncomingMessage, res: ServerResponse, gw: GatewayContext): Promise<void> {
  const head = req.method === "HEAD";
  let caller: Caller | undefined;
  try {
    // One schema cache for the whole request, even if a reload lands meanwhile.
    const cache = service.cache;
    if (!cache) throw new ApiError(503, "PGRST002", "Could not query the database for the schema cache. Retrying.");
    caller = authenticate(gw.bearer);
    const argumentNames = (schema: string, name: string) =>
      new Set((cache.routines.get(relationKey(schema, name)) ?? []).flatMap((r) => r.params.map((p) => p.name)));
    const request = await parseRequest(req, gw.url, caller, service.options, argumentNames, (shape) => service.plans.get(shape)?.parts);
    let cached = request.shape ? service.plans.get(request.shape) : undefined;
    let plan: Plan;
    let statement: Statement | undefined;
    if (cached) ({ plan, statement } = cached);
    else {
      plan = planRequest(cache, request);
      statement = buildStatement(plan, request, service.options);
      if (request.shape && statement) {
        statement.name = preparedName(statement.sql);
        cached = { parts: { query: request.query, limit: request.limit, offset: request.offset }, plan, statement, hits: 0 };
        if (service.plans.size >= maxCachedPlans) service.plans.delete(service.plans.keys().next().value as string);
        service.plans.set(request.shape, cached);
      }
    }
    let result;
    if (statement) {
      const settings = settingsFor(request, service.options, cache.roleSettings, statement.readOnly);
      // A read shape seen before runs as a named prepared statement with a generic plan.
      const prepare = cached ? ++cached.hits > 1 : undefined;
      result = await runStatement(service.executor, settings, statement, prepare);
    }
    respond(res, request, plan, result, service.options);
  } catch (error) {
    return sendError(res, toApiError(error, caller?.authenticated ?? false), head);
  }
}

function toApiError(error: unknown, authenticated: boolean): ApiError {
  if (error instanceof ApiError) return error;
  const pgError = error as { code?: string; message?: string; severity?: string };
  if (pgError && typeof pgError.code === "string" && pgError.severity)
    return fromPgError(error as { code: string; message: string }, authenticated);
  if (pgError?.code === "ECONNREFUSED" || pgError?.code === "ECONNRESET") {
    return new ApiError(503, "PGRST001", "Database client error. Retrying the connection.");
  }
  console.error("[rest] unexpected:", error);
  return new ApiError(500, "PGRSTX00", error instanceof Error ? error.message : "Internal error");
}
