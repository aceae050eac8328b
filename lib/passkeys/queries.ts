import type { ServerClient } from "@/lib/server-action";

/** A passkey as /account lists it. */
export interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The caller's passkeys, oldest first; null when they can't be read. Read through the database
 * (public.account_passkeys), not Auth's GET /passkeys, so viewing /account asks Auth nothing.
 */
export async function accountPasskeys(supabase: Pick<ServerClient, "rpc">): Promise<PasskeyItem[] | null> {
  const { data, error } = await supabase.rpc("account_passkeys");
  if (error) return null;
  return (data ?? []).map((row) => ({
    id: row.id,
    name: row.friendly_name || "Passkey",
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at ?? null,
  }));
}
