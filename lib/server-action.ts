import { verifiedUserId } from "@/lib/auth/verified-user";
import { messages } from "@/lib/messages";
import { type Result, fail, ok } from "@/lib/result";
import { createClient } from "@/lib/supabase/server";
import type { z } from "@/lib/validation/zod";

// What every server action does before its own work (lib/<feature>/actions.ts): check its input with
// the feature's schema (the browser is never trusted), then find who is calling — their id from the
// session's verified claims and this request's server client — or answer that the session ended.

export type ServerClient = Awaited<ReturnType<typeof createClient>>;

/** The signed-in person an action acts for. */
export interface Caller {
  userId: string;
  supabase: ServerClient;
}

/** Why an action stopped before its own work: its input broke the schema, or nobody is signed in. */
export type Refusal<Field extends PropertyKey = string> =
  { reason: "invalid"; message: string; fields: Partial<Record<Field, string>> } | { reason: "signed-out"; message: string };

export interface PreludeOptions {
  /** What a signed-out caller reads; messages.sessionEnded unless the action says what to do next. */
  sessionEnded?: string;
  /** Where the client comes from: this request's server client (a test gives its own). */
  client?: () => Promise<ServerClient>;
}

/** The caller, or the session-ended answer. */
export async function signedIn(options: PreludeOptions = {}): Promise<Result<Caller>> {
  const supabase = await (options.client ?? createClient)();
  const userId = await verifiedUserId(supabase);
  return userId ? ok({ userId, supabase }) : fail(options.sessionEnded ?? messages.sessionEnded);
}

type FieldOf<S extends z.ZodType> = z.output<S> extends object ? keyof z.output<S> : never;

/** The input parsed with `schema`, then the caller: for an action whose answer is its form's state. */
export async function prelude<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: PreludeOptions = {},
): Promise<Result<Caller & { input: z.output<S> }, Refusal<FieldOf<S>>>> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields: Partial<Record<PropertyKey, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field !== undefined && !fields[field]) fields[field] = issue.message;
    }
    return fail({ reason: "invalid", message: parsed.error.issues[0]?.message ?? messages.failed, fields });
  }
  const caller = await signedIn(options);
  if (!caller.ok) return fail({ reason: "signed-out", message: caller.error });
  return ok({ ...caller.data, input: parsed.data });
}

/** The whole of an action that answers a Result: the prelude, its refusal in words, then `handler`. */
export async function action<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  handler: (input: z.output<S>, caller: Caller) => Promise<Result<T>>,
  options: PreludeOptions = {},
): Promise<Result<T>> {
  const started = await prelude(schema, input, options);
  if (!started.ok) return fail(started.error.message);
  const { input: parsed, ...caller } = started.data;
  return handler(parsed, caller);
}

/**
 * A refusal as a form's state shows it: field errors next to their fields, a signed-out caller's
 * message above the form. The action adds what was typed, so nothing is lost.
 */
export function refusedForm<Field extends PropertyKey>(
  refusal: Refusal<Field>,
): { status: "error"; errors: Partial<Record<Field, string>>; message?: string } {
  return refusal.reason === "invalid"
    ? { status: "error", errors: refusal.fields }
    : { status: "error", errors: {}, message: refusal.message };
}
