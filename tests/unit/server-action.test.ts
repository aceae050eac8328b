// The server actions' prelude (lib/server-action.ts): the input checked with the action's schema,
// then the caller from the session's verified claims, or the shared session-ended answer. The
// client is a plain object with the one method the prelude calls.
import { describe, expect, test } from "vitest";
import { messages, sessionEndedThen } from "@/lib/messages";
import { fail, ok } from "@/lib/result";
import { type ServerClient, action, prelude, refusedForm, signedIn } from "@/lib/server-action";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";

const userId = "5b0c1f0e-7a51-4c1e-9d43-2f3e8a6b7c90";
const roomId = "0d8f7a62-3c1b-4e5f-8a9b-1c2d3e4f5a6b";

function client(claims: { sub?: string } | null, calls = { count: 0 }) {
  const supabase = {
    auth: {
      getClaims: async () => {
        calls.count++;
        return claims ? { data: { claims }, error: null } : { data: null, error: null };
      },
    },
  };
  return () => Promise.resolve(supabase as unknown as ServerClient);
}

const signedInAs = client({ sub: userId });
const signedOut = client(null);
const renameInput = z.object({ roomId: uuidField("This room no longer exists."), name: z.string().min(1, "Enter a name") });

describe("signedIn", () => {
  test("the verified id and the client it was read with", async () => {
    const answer = await signedIn({ client: signedInAs });
    expect(answer.ok && answer.data.userId).toBe(userId);
    expect(answer.ok && typeof answer.data.supabase.auth.getClaims).toBe("function");
  });

  test("signed out, or claims without a subject: the shared session-ended answer, or the action's own words", async () => {
    expect(await signedIn({ client: signedOut })).toEqual(fail(messages.sessionEnded));
    expect(await signedIn({ client: client({ sub: "" }) })).toEqual(fail(messages.sessionEnded));
    expect(await signedIn({ client: signedOut, sessionEnded: sessionEndedThen("join") })).toEqual(
      fail("Your session has ended — sign in again, then join."),
    );
  });
});

describe("prelude", () => {
  test("a bad input is refused with the schema's message and field errors, before anyone is asked who is calling", async () => {
    const calls = { count: 0 };
    const answer = await prelude(renameInput, { roomId, name: "" }, { client: client({ sub: userId }, calls) });
    expect(answer).toEqual(fail({ reason: "invalid", message: "Enter a name", fields: { name: "Enter a name" } }));
    expect(calls.count).toBe(0);
    expect(await prelude(renameInput, { roomId: "../other", name: "x" }, { client: signedInAs })).toEqual(
      fail({ reason: "invalid", message: "This room no longer exists.", fields: { roomId: "This room no longer exists." } }),
    );
  });

  test("signed out: the session-ended refusal", async () => {
    expect(await prelude(renameInput, { roomId, name: "Late night" }, { client: signedOut })).toEqual(
      fail({ reason: "signed-out", message: messages.sessionEnded }),
    );
  });

  test("a good input comes back parsed, with the caller", async () => {
    const answer = await prelude(renameInput, { roomId, name: "Late night", extra: true }, { client: signedInAs });
    expect(answer.ok && answer.data.input).toEqual({ roomId, name: "Late night" });
    expect(answer.ok && answer.data.userId).toBe(userId);
  });

  test("refusedForm: field errors next to the fields, the session's end above the form", async () => {
    expect(refusedForm({ reason: "invalid", message: "Enter a name", fields: { name: "Enter a name" } })).toEqual({
      status: "error",
      errors: { name: "Enter a name" },
    });
    expect(refusedForm({ reason: "signed-out", message: messages.sessionEnded })).toEqual({
      status: "error",
      errors: {},
      message: messages.sessionEnded,
    });
  });
});

describe("action", () => {
  const rename = (input: unknown, from: () => Promise<ServerClient>) =>
    action(renameInput, input, async (parsed, caller) => ok({ renamed: parsed.name, by: caller.userId }), { client: from });

  test("signed out: the shared session-ended result, and the handler never runs", async () => {
    expect(await rename({ roomId, name: "Late night" }, signedOut)).toEqual({
      ok: false,
      error: "Your session has ended — sign in again.",
    });
  });

  test("a bad input: the schema's message", async () => {
    expect(await rename({ roomId, name: "" }, signedInAs)).toEqual({ ok: false, error: "Enter a name" });
    expect(await rename({ roomId: 42, name: "x" }, signedInAs)).toEqual({ ok: false, error: "This room no longer exists." });
  });

  test("a good input reaches the handler with the caller's id", async () => {
    expect(await rename({ roomId, name: "Late night" }, signedInAs)).toEqual({ ok: true, data: { renamed: "Late night", by: userId } });
  });

  test("the handler's own refusal is the answer", async () => {
    const answer = await action(renameInput, { roomId, name: "x" }, async () => fail("Only the room's owner can rename it."), {
      client: signedInAs,
    });
    expect(answer).toEqual({ ok: false, error: "Only the room's owner can rename it." });
  });
});
