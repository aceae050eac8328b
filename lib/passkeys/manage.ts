import { type Result, fail, ok } from "@/lib/result";
import type { ServerClient } from "@/lib/server-action";
import { accountPasskeys } from "./queries";
import { checkPasskeyName, hasEmailSignIn, mayRemovePasskey, passkeyErrorMessage, passkeyMessages } from "./rules";

// Renaming and removing one of the caller's passkeys through Auth, as the signed-in person (the
// server actions' work, and what tests/integration/passkeys.test.ts drives with supabase-js).
//
// The last way in is guarded here (the rule: lib/passkeys/rules.ts), not in Auth or Postgres: Auth deletes any of the caller's
// passkeys it is asked to, and its passkeys never pass through the app's tables. So the app never
// asks Auth to delete a passkey that is the last way in; someone calling Auth's API themselves could
// still remove their own, at their own cost. Auth requires aal2 for both when two-factor is on.

type Client = Pick<ServerClient, "auth" | "rpc">;

const refusal = (error: { status?: number; code?: string; message?: string }) =>
  error.status === 404 ? passkeyMessages.notFound : passkeyErrorMessage(error, "add");

export async function renamePasskey(supabase: Client, passkeyId: string, typed: string): Promise<Result<{ name: string }>> {
  const checked = checkPasskeyName(typed);
  if ("error" in checked) return fail(checked.error);
  const { error } = await supabase.auth.passkey.update({ passkeyId, friendlyName: checked.name });
  return error ? fail(refusal(error)) : ok({ name: checked.name });
}

export async function removePasskey(supabase: Client, passkeyId: string): Promise<Result> {
  const [passkeys, { data: found }] = await Promise.all([accountPasskeys(supabase), supabase.auth.getUser()]);
  if (!passkeys || !found.user) return fail(passkeyMessages.failed);
  if (!passkeys.some((passkey) => passkey.id === passkeyId)) return fail(passkeyMessages.notFound);
  if (!mayRemovePasskey({ emailSignIn: hasEmailSignIn(found.user), passkeys: passkeys.length })) return fail(passkeyMessages.lastWayIn);
  const { error } = await supabase.auth.passkey.delete({ passkeyId });
  return error ? fail(refusal(error)) : ok();
}
