// Test accounts made through the stack's Auth admin API, so each test starts from a known state.
import { createClient } from "@supabase/supabase-js";
import { anonKey, serviceRoleKey } from "@cuepoint/stack/keys";

export const apiUrl = `http://127.0.0.1:${process.env.STACK_API_PORT ?? 54321}`;
const admin = createClient(apiUrl, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e.cuepoint.test`;
}

export async function createConfirmedUser(label: string, password = "correct-horse-battery") {
  const email = uniqueEmail(label);
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`);
  return { id: data.user.id, email, password };
}

export async function profileOf(userId: string) {
  const { data } = await admin.from("profiles").select("*").eq("id", userId).single();
  return data as { username: string; display_name: string; bio: string; avatar_path: string | null };
}

export const anon = () => createClient(apiUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
