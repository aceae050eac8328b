"use server";

// Renaming and removing a passkey on /account (lib/passkeys/manage.ts does the work and holds the
// rule about the last way in). Adding one is the browser's own ceremony: auth-js' registerPasskey in
// components/account/passkeys-section.tsx.
import { revalidatePath } from "next/cache";
import { sessionEndedTo } from "@/lib/messages";
import type { Result } from "@/lib/result";
import { action } from "@/lib/server-action";
import { uuidField } from "@/lib/validation/uuid-schema";
import { z } from "@/lib/validation/zod";
import { removePasskey, renamePasskey } from "./manage";
import { passkeyMessages } from "./rules";

const sessionEnded = { sessionEnded: sessionEndedTo("manage your passkeys") };
const passkeyId = uuidField(passkeyMessages.notFound);

export async function renamePasskeyAction(input: { passkeyId: string; name: string }): Promise<Result<{ name: string }>> {
  return action(
    z.object({ passkeyId, name: z.string(passkeyMessages.nameRequired) }),
    input,
    async ({ passkeyId: id, name }, { supabase }) => {
      const renamed = await renamePasskey(supabase, id, name);
      if (renamed.ok) revalidatePath("/account");
      return renamed;
    },
    sessionEnded,
  );
}

export async function removePasskeyAction(input: { passkeyId: string }): Promise<Result> {
  return action(
    z.object({ passkeyId }),
    input,
    async ({ passkeyId: id }, { supabase }) => {
      const removed = await removePasskey(supabase, id);
      if (removed.ok) revalidatePath("/account");
      return removed;
    },
    sessionEnded,
  );
}
