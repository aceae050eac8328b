import { ApiError } from "./errors.ts";
import { closestName, type Routine, relationKey, type SchemaCache } from "./schema-cache.ts";

/** Choosing the function an RPC call means (overloads, argument names, a single json parameter). */

export type RpcArguments =
  { kind: "json"; body: Record<string, unknown>; keys: string[]; raw: string } | { kind: "query"; values: [string, string][] };

const isJsonType = (type: string) => type === "json" || type === "jsonb";

export interface RoutineChoice {
  routine: Routine;
  /** The whole JSON body goes to the function's single json/jsonb parameter. */
  wholeBody: boolean;
}

export function chooseRoutine(
  cache: SchemaCache,
  schema: string,
  name: string,
  args: RpcArguments,
  singleObject: boolean,
  isPost: boolean,
): RoutineChoice {
  const overloads = cache.routines.get(relationKey(schema, name)) ?? [];
  const keys = args.kind === "json" ? args.keys : [...new Set(args.values.map(([k]) => k))];
  if (isPost) {
    const unnamedJson = overloads.filter(
      (r) => r.params.length === 1 && isJsonType(r.params[0].type) && (r.params[0].name === "" || singleObject),
    );
    if (unnamedJson.length === 1 && (singleObject || unnamedJson[0].params[0].name === "")) {
      const named = overloads.filter((r) => matches(r, keys));
      if (singleObject || !named.length) return { routine: unnamedJson[0], wholeBody: true };
    }
  }
  const found = overloads.filter((r) => matches(r, keys));
  if (found.length === 1) return { routine: found[0], wholeBody: false };
  if (found.length > 1) {
    const exact = found.filter((r) => r.params.length === keys.length);
    if (exact.length === 1) return { routine: exact[0], wholeBody: false };
    throw new ApiError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${found.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(", ")})`).join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    );
  }
  throw noRoutine(cache, schema, name, keys, overloads, isPost);
}

function matches(routine: Routine, keys: string[]): boolean {
  const names = routine.params.map((p) => p.name);
  return keys.every((k) => names.includes(k)) && routine.params.every((p) => p.hasDefault || keys.includes(p.name));
}

function noRoutine(cache: SchemaCache, schema: string, name: string, keys: string[], overloads: Routine[], isPost: boolean): ApiError {
  const sorted = [...keys].sort();
  const list = sorted.join(", ");
  const func = `${schema}.${name}`;
  const message = `Could not find the function ${func}${keys.length ? `(${list})` : " without parameters"} in the schema cache`;
  const withParams = keys.length ? ` with parameter${keys.length > 1 ? "s" : ""} ${list}` : " without parameters";
  const details = `Searched for the function ${func}${withParams}${isPost ? " or with a single unnamed json/jsonb parameter" : ""}, but no matches were found in the schema cache.`;
  let hint: string | null = null;
  if (overloads.length) {
    const signatures = overloads.map(
      (r) =>
        `(${r.params
          .map((p) => p.name)
          .sort()
          .join(", ")})`,
    );
    const best = closestName(`(${list})`, signatures, 0.33) ?? signatures[0];
    hint = `Perhaps you meant to call the function ${func}${best}`;
  } else {
    const names = [...cache.routines.values()]
      .flat()
      .filter((r) => r.schema === schema)
      .map((r) => r.name);
    const suggestion = closestName(name, names);
    if (suggestion) hint = `Perhaps you meant to call the function ${func.slice(0, schema.length + 1)}${suggestion}`;
  }
  return new ApiError(404, "PGRST202", message, details, hint);
}

export function routineRelation(cache: SchemaCache, routine: Routine) {
  return routine.returnRelation ? cache.relations.get(relationKey(routine.returnRelation.schema, routine.returnRelation.name)) : undefined;
}
