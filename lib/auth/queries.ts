import type { ServerClient } from "@/lib/server-action";

/** What /account shows of the recovery codes: how many are left, and when one last turned two-factor off (while it is off). */
export interface RecoveryStatus {
  codesLeft: number;
  recoveredAt: string | null;
}

export async function recoveryStatus(supabase: ServerClient): Promise<RecoveryStatus> {
  const { data } = await supabase.rpc("recovery_codes_status");
  const row = data?.[0];
  return { codesLeft: row?.codes_left ?? 0, recoveredAt: row?.recovered_at ?? null };
}
