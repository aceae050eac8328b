// Calls the link-wallet function with the page's Supabase session; its error answers come back
// as values ({ code, error }) with the words to show.
import { FunctionsHttpError } from "@supabase/functions-js";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";
import type { LinkWalletResponse } from "@/lib/validation/wallet";

export async function callLinkWallet(body: Record<string, unknown>): Promise<LinkWalletResponse> {
  const supabase = await loadSupabaseData();
  const { data, error } = await supabase.functions.invoke<LinkWalletResponse>("link-wallet", { body });
  if (error instanceof FunctionsHttpError) {
    const answer = (await (error.context as Response).json().catch(() => null)) as LinkWalletResponse | null;
    if (answer && "error" in answer) return answer;
  }
  if (error || !data)
    return { code: "network", error: "We couldn't reach Cuepoint to link the wallet — check your connection and try again." };
  return data;
}

/** Asks for fresh ENS names where the stored ones are over a day old; true when any changed. */
export async function refreshStaleNames(): Promise<boolean> {
  const answer = await callLinkWallet({ action: "refresh" });
  return "refreshed" in answer && answer.refreshed > 0;
}
